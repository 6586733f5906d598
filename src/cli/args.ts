import { parseArgs } from 'node:util';
import { UsageError } from '../errors.js';
import { parseUserArgs } from '../users/users.cli.js';

/** What the command line asks for, checked before the store is opened. */
export type Command =
  | { kind: 'help' }
  | {
      kind: 'workspace-create';
      slug: string;
      name: string;
      currency: string | undefined;
      locale: string | undefined;
      demo: boolean;
    }
  | { kind: 'key-create'; workspace: string; name: string }
  | { kind: 'key-list'; workspace: string }
  | { kind: 'key-delete'; workspace: string; uuid: string }
  /** Migrations only: runCli migrates before every command, this one does nothing else. */
  | { kind: 'db-migrate' }
  | { kind: 'db-distribute' }
  /** Handled by src/webhooks/webhooks.cli.ts, which parses its own arguments. */
  | { kind: 'webhook'; args: string[] }
  /** Handled by src/users/users.cli.ts (panel users). */
  | { kind: 'user'; args: string[] }
  /** Handled by src/calendar-feeds/calendar-feeds.cli.ts. */
  | { kind: 'calendar-feed'; args: string[] }
  /** Handled by src/imports/imports.cli.ts. */
  | { kind: 'import'; args: string[] };

type FlagSpec = Record<string, { type: 'string' | 'boolean'; required?: boolean }>;

const COMMANDS: Record<string, FlagSpec> = {
  'workspace create': {
    slug: { type: 'string', required: true },
    name: { type: 'string', required: true },
    currency: { type: 'string' },
    locale: { type: 'string' },
    demo: { type: 'boolean' },
  },
  'key create': { workspace: { type: 'string', required: true }, name: { type: 'string', required: true } },
  'key list': { workspace: { type: 'string', required: true } },
  'key delete': { workspace: { type: 'string', required: true }, uuid: { type: 'string', required: true } },
  'db migrate': {},
  'db distribute': {},
};

export function parseCommand(argv: string[]): Command {
  const [group, action, ...rest] = argv;
  if (group === undefined) throw new UsageError('No command given. Run with --help to see the commands.');
  // The webhook commands belong to another module, with their own flags (and their own --help).
  if (group === 'webhook') return { kind: 'webhook', args: argv.slice(1) };
  if (group === 'calendar-feed') return { kind: 'calendar-feed', args: argv.slice(1) };
  if (group === 'import') return { kind: 'import', args: argv.slice(1) };
  if (group === 'user') {
    parseUserArgs(argv.slice(1));
    return { kind: 'user', args: argv.slice(1) };
  }
  if (group === 'help' || argv.includes('--help') || argv.includes('-h')) return { kind: 'help' };

  const name = `${group} ${action ?? ''}`.trim();
  const spec = COMMANDS[name];
  if (!spec) {
    const groups = Object.keys(COMMANDS).map((key) => key.split(' ')[0]);
    if (!groups.includes(group)) {
      throw new UsageError(`Unknown command "${group}". Run with --help to see the commands.`);
    }
    throw new UsageError(
      action === undefined
        ? `"${group}" needs a subcommand. Run with --help to see the commands.`
        : `Unknown command "${name}". Run with --help to see the commands.`,
    );
  }
  const flags = parseFlags(name, spec, rest);
  switch (name) {
    case 'workspace create':
      return {
        kind: 'workspace-create',
        slug: flags.slug as string,
        name: flags.name as string,
        currency: flags.currency as string | undefined,
        locale: flags.locale as string | undefined,
        demo: flags.demo === true,
      };
    case 'key create':
      return { kind: 'key-create', workspace: flags.workspace as string, name: flags.name as string };
    case 'key list':
      return { kind: 'key-list', workspace: flags.workspace as string };
    case 'db migrate':
      return { kind: 'db-migrate' };
    case 'db distribute':
      return { kind: 'db-distribute' };
    default:
      return { kind: 'key-delete', workspace: flags.workspace as string, uuid: flags.uuid as string };
  }
}

function parseFlags(command: string, spec: FlagSpec, args: string[]): Record<string, string | boolean> {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(Object.entries(spec).map(([flag, { type }]) => [flag, { type }]));
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values as Record<
      string,
      string | boolean | undefined
    >;
  } catch (error) {
    // node:util's messages name the flag ("Unknown option '--x'", "Option '--slug <value>' argument missing").
    throw new UsageError(`${(error as Error).message.split('\n')[0]} (in "${command}"). Run with --help.`);
  }
  const missing = Object.entries(spec)
    .filter(([flag, { required }]) => required && values[flag] === undefined)
    .map(([flag]) => `--${flag}`);
  if (missing.length > 0) {
    throw new UsageError(`"${command}" needs ${missing.join(', ')}. Run with --help.`);
  }
  return values as Record<string, string | boolean>;
}
