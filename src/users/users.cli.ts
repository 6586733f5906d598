import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit.service.js';
import { loadConfig, publicBaseUrl } from '../config.js';
import { notFound, UsageError } from '../errors.js';
import type { Database } from '../platform/db/client.js';
import { findWorkspaceBySlug } from '../workspaces/workspaces.repository.js';
import { addMember, createPasswordReset, createUser, deleteUser, RESET_TTL_MS } from './users.service.js';

const USAGE = [
  'user create --email <email> [--name <name>]',
  'user add --email <email> --workspace <slug> --role owner|admin|staff',
  'user reset-password --email <email>',
  'user delete --email <email>',
];

type Flags = Record<string, { type: 'string' }>;

const COMMANDS: Record<string, { flags: Flags; required: string[] }> = {
  create: { flags: { email: { type: 'string' }, name: { type: 'string' } }, required: ['email'] },
  add: {
    flags: { email: { type: 'string' }, workspace: { type: 'string' }, role: { type: 'string' } },
    required: ['email', 'workspace', 'role'],
  },
  'reset-password': { flags: { email: { type: 'string' } }, required: ['email'] },
  delete: { flags: { email: { type: 'string' } }, required: ['email'] },
};

/** Checked before the store opens, so a typo costs no migration run. */
export function parseUserArgs(args: string[]): { name: string; values: Record<string, string> } | 'help' {
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || args.includes('--help') || args.includes('-h')) return 'help';
  const spec = COMMANDS[name];
  if (!spec) throw new UsageError(`Unknown command "user ${name}". Commands: ${USAGE.join(' | ')}`);
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({ args: rest, options: spec.flags, strict: true, allowPositionals: false })
      .values as Record<string, string | undefined>;
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]} (in "user ${name}").`);
  }
  const missing = spec.required.filter((flag) => values[flag] === undefined).map((flag) => `--${flag}`);
  if (missing.length > 0) throw new UsageError(`"user ${name}" needs ${missing.join(', ')}.`);
  return { name, values: values as Record<string, string> };
}

/**
 * `npm run --silent cli -- user <command> ...`: panel users for operators. `create` prints a
 * one-time password (replaced at the first sign-in); `reset-password` prints a one-time link.
 */
export async function userCommand(
  database: Database,
  args: string[],
  now: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<unknown> {
  const parsed = parseUserArgs(args);
  if (parsed === 'help') return { commands: USAGE };
  const { name, values } = parsed;
  const db = database.db;
  switch (name) {
    case 'create': {
      const { user, oneTimePassword } = await createUser(
        db,
        { email: values.email as string, ...(values.name !== undefined ? { name: values.name } : {}) },
        now,
      );
      return {
        user: { uuid: user.id, email: user.email, name: user.name },
        one_time_password: oneTimePassword,
      };
    }
    case 'add': {
      const workspace = await findWorkspaceBySlug(db, values.workspace as string);
      if (!workspace) throw notFound(`Workspace "${values.workspace}"`);
      const { user, role } = await addMember(
        db,
        workspace.id,
        { email: values.email as string, role: values.role as string },
        now,
        CLI_ACTOR,
      );
      return { user: { uuid: user.id, email: user.email }, workspace: workspace.slug, role };
    }
    case 'reset-password': {
      const token = await createPasswordReset(db, values.email as string, now);
      return {
        reset_url: `${panelBase(env)}/panel/reset-password/${token}`,
        expires_at: new Date(now + RESET_TTL_MS).toISOString(),
      };
    }
    default: {
      await deleteUser(db, values.email as string);
      return { deleted: true, email: (values.email as string).trim().toLowerCase() };
    }
  }
}

/** Where the server answers: PUBLIC_URL, else the HOST and PORT it listens on. */
function panelBase(env: NodeJS.ProcessEnv): string {
  return publicBaseUrl(loadConfig(env));
}
