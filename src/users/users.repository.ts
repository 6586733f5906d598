import type { Selectable } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { InvitesTable, Role, UsersTable } from '../platform/db/schema.js';

/** Users, memberships, invites and reset tokens: all the SQL of src/users except sessions. */

export type UserRow = Selectable<UsersTable>;
export type InviteRow = Selectable<InvitesTable>;

export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: Role;
  created_at: Date;
  /** The live staffer this member is (memberships.staffer_id, set under Settings → Notifications). */
  staffer_first_name: string | null;
  staffer_last_name: string | null;
}

export interface WorkspaceMembershipRow {
  workspace_id: string;
  slug: string;
  name: string;
  locale: string;
  role: Role;
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertUser(
  db: Db,
  values: { email: string; name: string; passwordHash: string; mustChangePassword: boolean; at: Date },
): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({
      email: values.email,
      name: values.name,
      password_hash: values.passwordHash,
      must_change_password: values.mustChangePassword,
      created_at: values.at,
      updated_at: values.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's panel language; null leaves it to the browser and the workspace. */
export async function setUserLanguage(
  db: Db,
  userId: string,
  language: string | null,
  at: Date,
): Promise<void> {
  await db.updateTable('users').set({ language, updated_at: at }).where('id', '=', userId).execute();
}

export async function setPasswordHash(
  db: Db,
  userId: string,
  passwordHash: string,
  mustChange: boolean,
  at: Date,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, must_change_password: mustChange, updated_at: at })
    .where('id', '=', userId)
    .execute();
}

/** Memberships, sessions and reset tokens go with the user (ON DELETE CASCADE). */
export async function deleteUserRow(db: Db, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export function listMembershipsOfUser(db: Db, userId: string): Promise<WorkspaceMembershipRow[]> {
  return db
    .selectFrom('memberships as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['m.workspace_id', 'w.slug', 'w.name', 'w.locale', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('w.name')
    .orderBy('w.slug')
    .execute();
}

export function listMembers(db: Db, workspaceId: string): Promise<MemberRow[]> {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('staffers as st', (j) =>
      j
        .onRef('st.workspace_id', '=', 'm.workspace_id')
        .onRef('st.id', '=', 'm.staffer_id')
        .on('st.archived_at', 'is', null),
    )
    .select([
      'm.user_id',
      'u.email',
      'u.name',
      'm.role',
      'm.created_at',
      'st.first_name as staffer_first_name',
      'st.last_name as staffer_last_name',
    ])
    .where('m.workspace_id', '=', workspaceId)
    .orderBy('m.created_at')
    .orderBy('u.email')
    .execute();
}

export function findMembership(db: Db, workspaceId: string, userId: string) {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Adds the membership, or changes the role of an existing one. */
export async function upsertMembership(
  db: Db,
  workspaceId: string,
  userId: string,
  role: Role,
  at: Date,
): Promise<void> {
  await db
    .insertInto('memberships')
    .values({ workspace_id: workspaceId, user_id: userId, role, created_at: at })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role }))
    .execute();
}

export async function setMembershipRole(db: Db, workspaceId: string, userId: string, role: Role) {
  const result = await db
    .updateTable('memberships')
    .set({ role })
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteMembership(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('memberships')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * The owners of a workspace, their rows locked: a role change or removal that checks "one owner
 * stays" holds the lock until it commits, so two concurrent demotions cannot both pass.
 */
export async function lockOwners(db: Db, workspaceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('user_id')
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .forUpdate()
    .execute();
  return rows.map((row) => row.user_id);
}

export function insertInvite(
  db: Db,
  values: {
    workspaceId: string;
    email: string;
    role: Role;
    tokenHash: string;
    invitedBy: string | null;
    at: Date;
    expiresAt: Date;
  },
): Promise<InviteRow> {
  return db
    .insertInto('invites')
    .values({
      workspace_id: values.workspaceId,
      email: values.email,
      role: values.role,
      token_hash: values.tokenHash,
      invited_by: values.invitedBy,
      created_at: values.at,
      expires_at: values.expiresAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Open invites of a workspace, newest first. */
export function listOpenInvites(db: Db, workspaceId: string, now: Date): Promise<InviteRow[]> {
  return db
    .selectFrom('invites')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('accepted_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .execute();
}

/** An open invite by its token's hash, with the workspace it opens. */
export function findOpenInvite(db: Db, tokenHash: string, now: Date) {
  return db
    .selectFrom('invites as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .selectAll('i')
    .select(['w.name as workspace_name', 'w.slug as workspace_slug'])
    .where('i.token_hash', '=', tokenHash)
    .where('i.accepted_at', 'is', null)
    .where('i.expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks the invite used; false when another request used it first. */
export async function consumeInvite(db: Db, workspaceId: string, inviteId: string, at: Date) {
  const result = await db
    .updateTable('invites')
    .set({ accepted_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteInvite(db: Db, workspaceId: string, inviteId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('invites')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertResetToken(
  db: Db,
  values: { userId: string; tokenHash: string; at: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('password_reset_tokens')
    .values({
      user_id: values.userId,
      token_hash: values.tokenHash,
      created_at: values.at,
      expires_at: values.expiresAt,
    })
    .execute();
}

export function findOpenResetToken(db: Db, tokenHash: string, now: Date) {
  return db
    .selectFrom('password_reset_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id', 't.user_id', 'u.email'])
    .where('t.token_hash', '=', tokenHash)
    .where('t.used_at', 'is', null)
    .where('t.expires_at', '>', now)
    .executeTakeFirst();
}

/** Uses the token; false when it was used meanwhile. */
export async function consumeResetToken(db: Db, tokenId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: at })
    .where('id', '=', tokenId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
