import closeWithGrace from 'close-with-grace';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { type Database, openDatabase } from './platform/db/client.js';
import { DataDirLockedError } from './platform/db/data-dir-lock.js';
import { migrate } from './platform/db/migrate.js';

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

/**
 * On SIGTERM or SIGINT, runs `stop` once (in-flight work finishes inside it), then exits 0. If
 * `stop` has not finished within `drainMs`, the process exits 1 anyway: an orchestrator's grace
 * period (often 30 s) must never be the thing that ends it. A second signal exits at once. An
 * uncaught exception or unhandled rejection also drains, then exits 1. (close-with-grace.)
 */
export function closeGracefully(logger: Logger, drainMs: number, stop: () => Promise<void>): void {
  closeWithGrace(
    {
      delay: drainMs,
      logger: { error: (message: unknown) => logger.error({ err: message }, 'shutdown') },
      onTimeout: (delay: number) => logger.error({ drainMs: delay }, 'drain deadline passed; exiting'),
    },
    async ({ signal, err }) => {
      if (err) logger.error({ err }, 'uncaught error; shutting down');
      else logger.info({ signal, drainMs }, 'shutting down');
      await stop();
      logger.info('stopped');
    },
  );
}
