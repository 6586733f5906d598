import { pino } from 'pino';
import { API_PREFIX, buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { migrate } from './db/migrate.js';
import { systemClock } from './http/types.js';
import { WebhookWorker } from './webhooks/delivery-worker.js';
import { seedDemoIfEmpty } from './workspaces/demo.js';

/** config -> db -> migrate -> (first run: demo) -> app -> listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      lockOwner: 'server',
    });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const applied = await migrate(database);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  const demo = await seedDemoIfEmpty(database.db, systemClock.now());

  const app = await buildApp({ database, config, logger });
  await app.listen({ port: config.port, host: config.host });
  // WORKER=off keeps deliveries out of this process (run `npm run worker` elsewhere).
  const worker =
    config.worker === 'on'
      ? new WebhookWorker({
          db: database.db,
          clock: systemClock,
          allowPrivate: config.webhooksAllowPrivate,
          logger,
        })
      : undefined;
  if (worker) {
    worker.start();
    logger.info('webhook delivery worker started');
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base =
    config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  const lines = [
    '',
    `Kairos is running on ${database.kind === 'pglite' ? `the embedded store in ${config.dataDir}` : 'PostgreSQL'}.`,
    `  API:       ${base}${API_PREFIX}`,
    `  API docs:  ${base}/docs`,
    `  Health:    ${base}/health`,
  ];
  if (demo) {
    lines.push(
      '',
      'A demo workspace was created (shown once; keep the key):',
      `  Workspace: ${demo.workspace.slug}`,
      `  API key:   ${demo.apiKey.secret}`,
      '',
      'Try it:',
      `  curl -s ${base}${API_PREFIX}/locations -H 'Authorization: Bearer ${demo.apiKey.secret}' -H 'Workspace: ${demo.workspace.slug}'`,
    );
  }
  console.log(`${lines.join('\n')}\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      // Stops accepting connections and waits for in-flight requests to finish.
      await app.close();
      // Sends in flight finish and record their results before the store closes.
      await worker?.stop();
      await database.close();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
