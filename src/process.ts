import type { Logger } from 'pino';
import type { Config } from './config.js';
import { type Database, openDatabase } from './db/client.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { migrate } from './db/migrate.js';

/**
 * What every long-running Kairos process (server, worker) does first: open the configured store
 * and migrate it. A held embedded data folder ends the process with the lock's message.
 */
export async function openStore(config: Config, logger: Logger, owner: string): Promise<Database> {
  let database: Database;
  try {
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      lockOwner: owner,
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
  return database;
}

/** On SIGTERM or SIGINT, runs `stop` once (in-flight work finishes inside it) and exits. */
export function exitOnSignals(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await stop();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
