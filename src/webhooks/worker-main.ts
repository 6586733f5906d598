import { pino } from 'pino';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import { migrate } from '../db/migrate.js';
import { systemClock } from '../http/types.js';
import { WebhookWorker } from './delivery-worker.js';

/**
 * `npm run worker`: the delivery worker on its own (DESIGN §1). Run API processes with WORKER=off
 * beside it, or not: any number of workers may share one PostgreSQL. On the embedded store the
 * data folder belongs to one process, so there the worker normally runs inside `npm start`.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      lockOwner: 'worker',
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

  const worker = new WebhookWorker({
    db: database.db,
    clock: systemClock,
    allowPrivate: config.webhooksAllowPrivate,
    logger,
  });
  worker.start();
  logger.info('webhook delivery worker started');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      // Lets the sends in flight finish and record their results before the store closes.
      await worker.stop();
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
