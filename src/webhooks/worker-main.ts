import { pino } from 'pino';
import { loadConfig, publicBaseUrl } from '../config.js';
import { watchMailQueue } from '../notifications/mail-metrics.js';
import { mailWorkerFromConfig } from '../notifications/mail-worker.js';
import { systemClock } from '../platform/http/types.js';
import { startMetricsServer } from '../platform/metrics/endpoint.js';
import { closeGracefully, openStore } from '../process.js';
import { WebhookWorker } from './delivery-worker.js';
import { watchOutbox } from './outbox-metrics.js';

/**
 * `npm run worker`: the delivery worker on its own (DESIGN §1). Run API processes with WORKER=off
 * beside it, or not: any number of workers may share one PostgreSQL. On the embedded store the
 * data folder belongs to one process, so there the worker normally runs inside `npm start`.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const database = await openStore(config, logger, 'worker');

  const worker = new WebhookWorker({
    db: database.db,
    clock: systemClock,
    allowPrivate: config.webhooksAllowPrivate,
    logger,
  });
  // Emails go out from here too, on the same partition leases.
  const mailWorker = mailWorkerFromConfig(config, {
    db: database.db,
    clock: systemClock,
    logger,
    leases: worker.leases,
    publicBase: publicBaseUrl(config),
  });
  worker.start();
  mailWorker.start();
  // METRICS_PORT: the worker's own /metrics (it has no other HTTP server).
  const metricsServer = await startMetricsServer(config);
  watchOutbox(database);
  watchMailQueue(database);
  // Before the 'started' lines: a SIGTERM sent on reading them finds its handler installed.
  closeGracefully(logger, config.shutdownDrainMs, async () => {
    // Lets the sends in flight finish and record their results before the store closes.
    await mailWorker.stop();
    await worker.stop();
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
