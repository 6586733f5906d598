import type { Db } from '../platform/db/client.js';
import type { Role } from '../platform/db/schema.js';

/** The SQL of panel sessions (src/users/sessions.service.ts). */

export interface SessionLookupRow {
  session_id: string;
  user_id: string;
  email: string;
  name: string;
  must_change_password: boolean;
  /** The panel language the user picked; null when they left it to the browser. */
  language: string | null;
  expires_at: Date;
  workspace_id: string | null;
  /** null when the session's workspace is not (or no longer) one of the user's. */
  role: Role | null;
  workspace_slug: string | null;
  workspace_name: string | null;
  workspace_locale: string | null;
}

export async function insertSession(
  db: Db,
  values: { tokenHash: string; userId: string; workspaceId: string | null; at: Date; expiresAt: Date },
): Promise<string> {
  const row = await db
    .insertInto('sessions')
    .values({
      token_hash: values.tokenHash,
      user_id: values.userId,
      shown_workspace_id: values.workspaceId,
      created_at: values.at,
      last_seen_at: values.at,
      expires_at: values.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * One query per panel request: the live session, its user, and the user's role in the session's
 * workspace. Read from the database every time, so a sign-out, a deleted user or a removed
 * membership takes effect on the very next request, on every process.
 */
export function findLiveSession(db: Db, tokenHash: string, now: Date): Promise<SessionLookupRow | undefined> {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('memberships as m', (join) =>
      join.onRef('m.workspace_id', '=', 's.shown_workspace_id').onRef('m.user_id', '=', 's.user_id'),
    )
    .leftJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select([
      's.id as session_id',
      's.user_id',
      'u.email',
      'u.name',
      'u.must_change_password',
      'u.language',
      's.expires_at',
      's.shown_workspace_id as workspace_id',
      'm.role',
      'w.slug as workspace_slug',
      'w.name as workspace_name',
      'w.locale as workspace_locale',
    ])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .executeTakeFirst();
}

export async function setSessionWorkspace(db: Db, sessionId: string, workspaceId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ shown_workspace_id: workspaceId })
    .where('id', '=', sessionId)
    .execute();
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Every session of the user but `keep` (a password change keeps the browser that made it). */
export async function deleteSessionsOfUser(db: Db, userId: string, keep?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keep) query = query.where('id', '<>', keep);
  await query.execute();
}
