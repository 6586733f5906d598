import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { AppError } from '../errors.js';
import { type Command, parseCommand } from './args.js';
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

export type WebhookCommand = (database: Database, args: string[]) => Promise<unknown>;

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
  try {
    const command = parseCommand(argv);
    if (command.kind === 'help') {
      io.stdout(HELP);
      return EXIT_OK;
    }
    // Loaded before the store opens, so "not available" needs no store.
    const webhookCommand = command.kind === 'webhook' ? await loadWebhookCommand() : undefined;
    const config = loadConfig(env);
    database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : config.dataDir,
      lockOwner: 'cli',
    });
    const applied = await migrate(database);
    if (applied.length > 0) io.stderr(`Applied migrations: ${applied.join(', ')}\n`);
    const result = webhookCommand
      ? await webhookCommand(database, (command as Extract<Command, { kind: 'webhook' }>).args)
      : await executeCommand(database, command as Parameters<typeof executeCommand>[1], now());
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
    await database?.close().catch(() => {});
  }
}

/**
 * The webhook subcommands live in src/webhooks/webhooks.cli.ts (another feature's folder). Looked
 * up at run time so this CLI builds and runs whether or not that module exists yet.
 */
async function loadWebhookCommand(): Promise<WebhookCommand> {
  const built = fileURLToPath(new URL('../webhooks/webhooks.cli.js', import.meta.url));
  // Under the test runner this file is the .ts source; in dist/ it is compiled .js.
  const file = [built, built.replace(/\.js$/, '.ts')].find((candidate) => existsSync(candidate));
  const notAvailable = (why: string) =>
    new AppError(501, 'not_available', `The webhook commands are not available in this build: ${why}`);
  if (!file) throw notAvailable('src/webhooks/webhooks.cli.ts is missing.');
  const module = (await import(pathToFileURL(file).href)) as { webhookCommand?: unknown };
  if (typeof module.webhookCommand !== 'function') {
    throw notAvailable('src/webhooks/webhooks.cli.ts does not export webhookCommand.');
  }
  return module.webhookCommand as WebhookCommand;
}
