import { parseArgs } from 'node:util';
import { loadConfig, publicBaseUrl } from '../config.js';
import { notFound, UsageError } from '../errors.js';
import type { Database } from '../platform/db/client.js';
import { isUuid } from '../platform/uuid.js';
import { findMembership, findUserByEmail } from '../users/users.repository.js';
import { findWorkspaceBySlug } from '../workspaces/workspaces.repository.js';
import { openWritePath } from '../write-path.js';
import { type FeedOwner, linkMemberToStaffer, regenerateFeed, showFeed } from './calendar-feeds.service.js';

const USAGE = [
  'calendar-feed show --workspace <slug> (--staffer <uuid> | --user <email>)',
  'calendar-feed regenerate --workspace <slug> (--staffer <uuid> | --user <email>)',
  'calendar-feed link --workspace <slug> --user <email> (--staffer <uuid> | --none)',
];

const FLAGS = {
  workspace: { type: 'string' },
  staffer: { type: 'string' },
  user: { type: 'string' },
  none: { type: 'boolean' },
} as const;

/**
 * `npm run --silent cli -- calendar-feed <command> ...` (docs/calendar-feeds.md): a staffer's or
 * a member's feed URL, a new URL (the old one ends at once), and which staffer a member is. URLs
 * are under PUBLIC_URL, else the server's HOST and PORT.
 */
export async function calendarFeedCommand(
  database: Database,
  args: string[],
  now: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<unknown> {
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || args.includes('--help') || args.includes('-h')) {
    return { commands: USAGE };
  }
  if (!['show', 'regenerate', 'link'].includes(name)) {
    throw new UsageError(`Unknown command "calendar-feed ${name}". Commands: ${USAGE.join(' | ')}`);
  }
  let values: { workspace?: string; staffer?: string; user?: string; none?: boolean };
  try {
    values = parseArgs({ args: rest, options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]} (in "calendar-feed ${name}").`);
  }
  if (values.workspace === undefined) throw new UsageError(`"calendar-feed ${name}" needs --workspace.`);
  const whom = [values.staffer !== undefined, values.user !== undefined].filter(Boolean).length;
  if (name === 'link') {
    if (values.user === undefined || (values.staffer === undefined) === (values.none !== true)) {
      throw new UsageError('"calendar-feed link" needs --user and either --staffer or --none.');
    }
  } else if (whom !== 1 || values.none) {
    throw new UsageError(`"calendar-feed ${name}" needs exactly one of --staffer and --user.`);
  }

  const db = database.db;
  const { uow } = openWritePath(db);
  const workspace = await findWorkspaceBySlug(db, values.workspace);
  if (!workspace) throw notFound('Workspace');
  // Not a uuid names no staffer of this workspace: the same not_found as an unknown one.
  if (values.staffer !== undefined && !isUuid(values.staffer)) throw notFound('Staffer');
  let userId: string | undefined;
  if (values.user !== undefined) {
    const user = await findUserByEmail(db, values.user.trim().toLowerCase());
    if (!user || !(await findMembership(db, workspace.id, user.id))) throw notFound('Member');
    userId = user.id;
  }
  const linkBase = publicBaseUrl(loadConfig(env));

  if (name === 'link') {
    await linkMemberToStaffer(uow, workspace.id, userId!, values.staffer ?? null);
    return { user: values.user!.trim().toLowerCase(), staffer_uuid: values.staffer ?? null };
  }
  const owner: FeedOwner = values.staffer !== undefined ? { stafferId: values.staffer } : { userId: userId! };
  const feed =
    name === 'regenerate'
      ? await regenerateFeed(uow, workspace, owner, linkBase, now)
      : await showFeed(db, workspace, owner, linkBase);
  if (!feed) throw notFound('Calendar feed (make one with "calendar-feed regenerate")');
  return { url: feed.url, regenerated_at: feed.regenerated_at.toISOString() };
}
