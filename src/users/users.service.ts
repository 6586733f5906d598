import { type AuditActor, CLI_ACTOR, recordAudit } from '../audit/audit.service.js';
import { AppError, FieldErrorBag, invalidField, notFound, REQUIRED, ruleIssue } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { Role } from '../platform/db/schema.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { langOf } from '../platform/i18n.js';
import { generateOneTimePassword, hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { isRole } from './roles.js';
import { deleteSessionsOfUser } from './sessions.repository.js';
import { hashToken, newToken } from './tokens.js';
import {
  consumeInvite,
  consumeResetToken,
  deleteInvite,
  deleteMembership,
  deleteUserRow,
  findMembership,
  findOpenInvite,
  findOpenResetToken,
  findUserByEmail,
  findUserById,
  insertInvite,
  insertResetToken,
  insertUser,
  listMembers,
  listOpenInvites,
  lockOwners,
  setMembershipRole,
  setPasswordHash,
  setUserLanguage,
  type UserRow,
  upsertMembership,
} from './users.repository.js';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_TTL_MS = 60 * 60 * 1000;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Emails are compared lower-cased and trimmed (the column's CHECK says so too). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function checkEmail(errors: FieldErrorBag, email: string): void {
  if (email === '') errors.add('email', 'The email field is required.', REQUIRED);
  else if (!EMAIL_PATTERN.test(email) || email.length > 254) {
    errors.add('email', 'The email must be a valid email address.', { kind: 'invalid_email' });
  }
}

function checkRole(errors: FieldErrorBag, role: string): asserts role is Role {
  if (!isRole(role))
    errors.add('role', 'The role must be one of: owner, admin, staff.', ruleIssue('role_invalid'));
}

/**
 * Creates a user. Without a password one is generated and returned: a one-time password the
 * user must replace at the first sign-in (first run, `user create`).
 */
export async function createUser(
  db: Db,
  input: { email: string; name?: string; password?: string },
  now: number,
): Promise<{ user: UserRow; oneTimePassword: string | undefined }> {
  const email = normalizeEmail(input.email);
  const errors = new FieldErrorBag();
  checkEmail(errors, email);
  const problem = input.password === undefined ? undefined : passwordProblem(input.password);
  if (problem) errors.add('password', problem.message, problem.issue);
  errors.throwIfAny();
  if (await findUserByEmail(db, email))
    throw invalidField('email', 'A user with this email already exists.', ruleIssue('email_taken'));
  const oneTimePassword = input.password === undefined ? generateOneTimePassword() : undefined;
  const passwordHash = await hashPassword(input.password ?? (oneTimePassword as string));
  const user = await insertUser(db, {
    email,
    name: (input.name ?? '').trim(),
    passwordHash,
    mustChangePassword: oneTimePassword !== undefined,
    at: new Date(now),
  });
  return { user, oneTimePassword };
}

/** Gives an existing user a role in a workspace (or changes it): `user add`. */
export async function addMember(
  db: Db,
  workspaceId: string,
  input: { email: string; role: string },
  now: number,
  actor: AuditActor,
): Promise<{ user: UserRow; role: Role }> {
  const errors = new FieldErrorBag();
  const role = input.role;
  checkRole(errors, role);
  errors.throwIfAny();
  const user = await findUserByEmail(db, normalizeEmail(input.email));
  if (!user) throw notFound('User');
  await db.transaction().execute(async (tx) => {
    const owners = await lockOwners(tx, workspaceId);
    if (role !== 'owner' && owners.length === 1 && owners[0] === user.id) throw lastOwner();
    await upsertMembership(tx, workspaceId, user.id, role, new Date(now));
    await recordAudit(tx, workspaceId, actor, 'team.member_added', user.id, { email: user.email, role });
  });
  return { user, role };
}

const lastOwner = () =>
  new AppError(
    409,
    'last_owner',
    'A workspace keeps at least one owner.',
    { role: ['A workspace keeps at least one owner: make someone else an owner first.'] },
    undefined,
    { role: ruleIssue('last_owner') },
  );

/** Owners change roles; the last owner cannot be demoted. */
export async function changeRole(
  uow: UnitOfWork,
  workspaceId: string,
  userId: string,
  role: string,
  actor: AuditActor,
): Promise<void> {
  const errors = new FieldErrorBag();
  checkRole(errors, role);
  errors.throwIfAny();
  await uow.run(workspaceId, async (tx) => {
    const owners = await lockOwners(tx, workspaceId);
    if (!(await findMembership(tx, workspaceId, userId))) throw notFound('Member');
    if (role !== 'owner' && owners.length === 1 && owners[0] === userId) throw lastOwner();
    await setMembershipRole(tx, workspaceId, userId, role as Role);
    await recordAudit(tx, workspaceId, actor, 'team.role_changed', userId, { role });
  });
}

/** Removes a member; their sessions lose this workspace on the next request. */
export async function removeMember(
  uow: UnitOfWork,
  workspaceId: string,
  userId: string,
  actor: AuditActor,
): Promise<void> {
  await uow.run(workspaceId, async (tx) => {
    const owners = await lockOwners(tx, workspaceId);
    if (owners.length === 1 && owners[0] === userId) throw lastOwner();
    if (!(await deleteMembership(tx, workspaceId, userId))) throw notFound('Member');
    await recordAudit(tx, workspaceId, actor, 'team.member_removed', userId);
  });
}

/** An invite link's token, returned once; only its hash is stored. */
export async function inviteMember(
  db: Db,
  workspaceId: string,
  input: { email: string; role: string },
  invitedBy: string | null,
  now: number,
): Promise<{ token: string; email: string; role: Role }> {
  const email = normalizeEmail(input.email);
  const errors = new FieldErrorBag();
  checkEmail(errors, email);
  const role = input.role;
  checkRole(errors, role);
  errors.throwIfAny();
  const existing = await findUserByEmail(db, email);
  if (existing && (await findMembership(db, workspaceId, existing.id))) {
    throw invalidField('email', 'This person is already a member.', ruleIssue('already_member'));
  }
  const token = newToken();
  await insertInvite(db, {
    workspaceId,
    email,
    role: role as Role,
    tokenHash: hashToken(token),
    invitedBy,
    at: new Date(now),
    expiresAt: new Date(now + INVITE_TTL_MS),
  });
  await recordAudit(
    db,
    workspaceId,
    invitedBy ? { type: 'user', id: invitedBy } : CLI_ACTOR,
    'team.invited',
    null,
    {
      email,
      role,
    },
  );
  return { token, email, role: role as Role };
}

/** What an invite link shows before it is accepted; undefined when unknown, used or expired. */
export async function describeInvite(db: Db, token: string, now: number) {
  const invite = await findOpenInvite(db, hashToken(token), new Date(now));
  if (!invite) return undefined;
  const user = await findUserByEmail(db, invite.email);
  return { invite, userExists: user !== undefined };
}

/**
 * Accepts an invite: a new user chooses a password; an existing one proves it is them with
 * theirs. Returns the user, now a member with the invite's role.
 */
export async function acceptInvite(
  db: Db,
  token: string,
  input: { name?: string; password: string },
  verify: (user: UserRow, password: string) => Promise<boolean>,
  now: number,
): Promise<{ user: UserRow; workspaceId: string }> {
  const found = await describeInvite(db, token, now);
  if (!found) throw notFound('Invite');
  const { invite } = found;
  let user = await findUserByEmail(db, invite.email);
  if (user) {
    if (!(await verify(user, input.password)))
      throw invalidField('password', 'The password is not correct.', ruleIssue('password_not_correct'));
  } else {
    const problem = passwordProblem(input.password);
    if (problem) throw invalidField('password', problem.message, problem.issue);
  }
  const passwordHash = user ? undefined : await hashPassword(input.password);
  return db.transaction().execute(async (tx) => {
    if (!(await consumeInvite(tx, invite.workspace_id, invite.id, new Date(now)))) throw notFound('Invite');
    user ??= await insertUser(tx, {
      email: invite.email,
      name: (input.name ?? '').trim(),
      passwordHash: passwordHash as string,
      mustChangePassword: false,
      at: new Date(now),
    });
    const current = await findMembership(tx, invite.workspace_id, user.id);
    // An invite never lowers a role the person already has.
    if (!current) await upsertMembership(tx, invite.workspace_id, user.id, invite.role, new Date(now));
    return { user, workspaceId: invite.workspace_id };
  });
}

/** A one-time reset link's token (`user reset-password`); valid for an hour. */
export async function createPasswordReset(db: Db, email: string, now: number): Promise<string> {
  const user = await findUserByEmail(db, normalizeEmail(email));
  if (!user) throw notFound('User');
  const token = newToken();
  await insertResetToken(db, {
    userId: user.id,
    tokenHash: hashToken(token),
    at: new Date(now),
    expiresAt: new Date(now + RESET_TTL_MS),
  });
  return token;
}

export async function describeReset(db: Db, token: string, now: number) {
  return findOpenResetToken(db, hashToken(token), new Date(now));
}

/** Sets the new password, uses the token, and ends every session of the user. */
export async function resetPassword(db: Db, token: string, password: string, now: number): Promise<UserRow> {
  const found = await describeReset(db, token, now);
  if (!found) throw notFound('Reset link');
  const problem = passwordProblem(password);
  if (problem) throw invalidField('password', problem.message, problem.issue);
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (tx) => {
    if (!(await consumeResetToken(tx, found.id, new Date(now)))) throw notFound('Reset link');
    await setPasswordHash(tx, found.user_id, passwordHash, false, new Date(now));
    await deleteSessionsOfUser(tx, found.user_id);
    return (await findUserByEmail(tx, found.email)) as UserRow;
  });
}

/** A signed-in user's new password; their other sessions end, this one stays. */
export async function changePassword(
  uow: UnitOfWork,
  userId: string,
  sessionId: string,
  password: string,
  now: number,
): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw invalidField('password', problem.message, problem.issue);
  const passwordHash = await hashPassword(password);
  await uow.run(null, async (tx) => {
    await setPasswordHash(tx, userId, passwordHash, false, new Date(now));
    await deleteSessionsOfUser(tx, userId, sessionId);
  });
}

/**
 * The panel language a user picks for themselves: one of the panel's languages, or '' for none
 * (the browser's Accept-Language, else the workspace's locale). Read with the session, so the
 * next page already speaks it.
 */
export async function chooseLanguage(uow: UnitOfWork, userId: string, language: string, now: number) {
  const lang = language === '' ? null : langOf(language);
  if (lang === undefined || (lang !== null && lang !== language)) {
    throw invalidField('language', 'Choose one of the listed languages.', ruleIssue('language_invalid'));
  }
  await uow.run(null, (tx) => setUserLanguage(tx, userId, lang, new Date(now)));
}

/** Deleting a user ends their sessions at once (ON DELETE CASCADE), on every process. */
export async function deleteUser(db: Db, email: string): Promise<void> {
  const user = await findUserByEmail(db, normalizeEmail(email));
  if (!user || !(await deleteUserRow(db, user.id))) throw notFound('User');
}

/** Whether `password` is the user's current one (a password change asks for it first). */
export async function isCurrentPassword(db: Db, userId: string, password: string): Promise<boolean> {
  const user = await findUserById(db, userId);
  return user !== undefined && (await verifyPassword(password, user.password_hash));
}

/** The workspace's members with their roles (the team page). */
export function listTeam(db: Db, workspaceId: string) {
  return listMembers(db, workspaceId);
}

/** The workspace's invites not yet accepted and not expired at `now`. */
export function listPendingInvites(db: Db, workspaceId: string, now: number) {
  return listOpenInvites(db, workspaceId, new Date(now));
}

/** Withdraws an invite not yet accepted; false when there is none. */
export function withdrawInvite(db: Db, workspaceId: string, inviteId: string): Promise<boolean> {
  return deleteInvite(db, workspaceId, inviteId);
}
