import { pino } from 'pino';
import { loadConfig, publicBaseUrl } from './config.js';
import { watchMailQueue } from './notifications/mail-metrics.js';
import { watchOutbox } from './outbox/outbox-metrics.js';
import { systemClock } from './platform/http/types.js';
import { startMetricsServer } from './platform/metrics/endpoint.js';
import { closeGracefully, openStore } from './process.js';
import { watchDeliveries } from './webhooks/delivery-metrics.js';
import { openWorkers } from './workers.js';

/**
 * `npm run worker`: the workers in a process of their own: webhook deliveries and emails. Run API
 * processes with WORKER=off beside it, or not: any number of workers may share one PostgreSQL. On
 * the embedded store the data folder belongs to one process, so there the workers normally run
 * inside `npm start`.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const database = await openStore(config, logger, 'worker');

  const workers = openWorkers(config, {
    db: database.db,
    clock: systemClock,
    logger,
    publicBase: publicBaseUrl(config),
  });
  workers.start();
  // METRICS_PORT: the worker's own /metrics (it has no other HTTP server).
  const metricsServer = await startMetricsServer(config);
  watchOutbox(database);
  watchDeliveries(database);
  watchMailQueue(database);
  // Before the 'started' lines: a SIGTERM sent on reading them finds its handler installed.
  closeGracefully(logger, config.shutdownDrainMs, async () => {
    // Lets the sends in flight finish and record their results before the store closes.
    await workers.stop();
    await metricsServer?.close();
    await database.close();
  });
  logger.info(metricsServer ? { metricsPort: metricsServer.port } : {}, 'webhook delivery worker started');
  logger.info(
    { smtp: config.smtpUrl ? 'on' : 'off: the mail log keeps each message' },
    'mail worker started',
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
