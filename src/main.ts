import { pino } from 'pino';
import { API_PREFIX, buildApp } from './app/app.js';
import { loadConfig, publicBaseUrl } from './config.js';
import { watchMailQueue } from './notifications/mail-metrics.js';
import { watchOutbox } from './outbox/outbox-metrics.js';
import { openConfiguredBus } from './platform/bus/open-bus.js';
import { settleAccepts } from './platform/http/drain.js';
import { systemClock } from './platform/http/types.js';
import { startMetricsServer } from './platform/metrics/endpoint.js';
import { closeGracefully, openStore } from './process.js';
import { watchDeliveries } from './webhooks/delivery-metrics.js';
import { openWorkers } from './workers.js';
import { seedDemoIfEmpty } from './workspaces/demo.service.js';

/** config -> db -> migrate -> (first run: demo) -> app -> listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const database = await openStore(config, logger, 'server');
  const demo = await seedDemoIfEmpty(database.db, systemClock.now());

  const bus = await openConfiguredBus(config, (error) =>
    logger.warn({ err: error }, 'cache invalidation bus: connection problem (caches fall back to their TTL)'),
  );
  const app = await buildApp({ database, config, logger, ...(bus ? { bus } : {}) });
  await app.listen({ port: config.port, host: config.host });
  const metricsServer = await startMetricsServer(config);
  watchOutbox(database);
  watchDeliveries(database);
  watchMailQueue(database);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = publicBaseUrl(config, port);
  // WORKER=off keeps deliveries and emails out of this process (run `npm run worker` elsewhere).
  const workers =
    config.worker === 'on'
      ? openWorkers(config, { db: database.db, clock: systemClock, logger, publicBase: base })
      : undefined;
  if (workers) {
    workers.start();
    logger.info('webhook delivery worker started');
    logger.info(
      { smtp: config.smtpUrl ? 'on' : 'off: the mail log keeps each message' },
      'mail worker started',
    );
  }

  // Before the banner: whoever reads it as "ready" (a supervisor, a test) may send SIGTERM at
  // once, and a signal that comes before its handler is installed kills the process outright.
  closeGracefully(logger, config.shutdownDrainMs, async () => {
    // Connections the kernel accepted before the signal are taken in and their requests read,
    // then the listener closes, idle keep-alive connections close, and in-flight requests finish.
    await settleAccepts(app.server);
    await app.close();
    // Sends in flight finish and record their results before the store closes.
    await workers?.stop();
    await metricsServer?.close();
    await bus?.close();
    await database.close();
  });

  const lines = [
    '',
    `Kairos is running on ${database.kind === 'pglite' ? `the embedded store in ${config.dataDir}` : 'PostgreSQL'}.`,
    `  API:       ${base}${API_PREFIX}`,
    `  API docs:  ${base}/docs`,
    `  Health:    ${base}/health`,
    `  Panel:     ${base}/panel`,
    `  Booking:   ${base}/book/<workspace slug>`,
  ];
  if (metricsServer) lines.push(`  Metrics:   http://${config.metricsHost}:${metricsServer.port}/metrics`);
  else if (config.metricsToken) lines.push(`  Metrics:   ${base}/metrics (Bearer METRICS_TOKEN)`);
  if (demo) {
    lines.push(
      '',
      'A demo workspace was created (shown once; keep the key):',
      `  Workspace: ${demo.workspace.slug}`,
      `  API key:   ${demo.apiKey.secret}`,
      `  Booking page: ${base}/book/${demo.workspace.slug}`,
      '',
      'Sign in to the account panel (the password works once; you choose your own then):',
      `  Email:     ${demo.owner.email}`,
      `  Password:  ${demo.owner.oneTimePassword}`,
      '',
      'Try it:',
      `  curl -s ${base}${API_PREFIX}/locations -H 'Authorization: Bearer ${demo.apiKey.secret}' -H 'Workspace: ${demo.workspace.slug}'`,
    );
  }
  console.log(`${lines.join('\n')}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
