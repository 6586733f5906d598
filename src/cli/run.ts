import { calendarFeedCommand } from '../calendar-feeds/calendar-feeds.cli.js';
import { loadConfig } from '../config.js';
import { importCommand } from '../imports/imports.cli.js';
import type { InvalidationBus } from '../platform/bus/invalidation-bus.js';
import { openConfiguredBus } from '../platform/bus/open-bus.js';
import { distributeSchema } from '../platform/db/citus-distribution.js';
import { type Database, openDatabase } from '../platform/db/client.js';
import { migrate } from '../platform/db/migrate.js';
import { userCommand } from '../users/users.cli.js';
import { webhookCommand } from '../webhooks/webhooks.cli.js';
import { parseCommand } from './args.js';
import { executeCommand } from './commands.js';
import { EXIT_OK, toCliError } from './errors.js';
import { HELP } from './help.js';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * Parses, opens the store like the server does (DATA_DIR or DATABASE_URL), migrates, runs one
 * command and prints its JSON. Returns the exit code; never throws.
 */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = processIo,
  now: () => number = Date.now,
): Promise<number> {
  let database: Database | undefined;
  let bus: InvalidationBus | undefined;
  try {
    const command = parseCommand(argv);
    if (command.kind === 'help') {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const config = loadConfig(env);
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      lockOwner: 'cli',
    });
    const applied = await migrate(database);
    if (applied.length > 0) io.stderr(`Applied migrations: ${applied.join(', ')}\n`);
    // Servers on the same database learn of this command's writes as of each other's.
    bus = await openConfiguredBus(config);
    const result =
      command.kind === 'db-migrate'
        ? { applied }
        : command.kind === 'db-distribute'
          ? { statements: await database.session(distributeSchema) }
          : command.kind === 'user'
            ? await userCommand(database, command.args, now(), env)
            : command.kind === 'webhook'
              ? await webhookCommand(database, command.args, bus)
              : command.kind === 'calendar-feed'
                ? await calendarFeedCommand(database, command.args, now(), env)
                : command.kind === 'import'
                  ? await importCommand(database, command.args, now(), env)
                  : await executeCommand(database, command, now(), bus);
    await bus?.close();
    bus = undefined;
    await database.close();
    database = undefined;
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT_OK;
  } catch (error) {
    const { exitCode, body } = toCliError(error);
    if (body.error.code === 'internal_error' && error instanceof Error && error.stack) {
      io.stderr(`${error.stack}\n`);
    }
    io.stderr(`${JSON.stringify(body)}\n`);
    return exitCode;
  } finally {
    await bus?.close().catch(() => {});
    await database?.close().catch(() => {});
  }
}
