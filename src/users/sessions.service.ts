import { AppError, notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { Role } from '../platform/db/schema.js';
import { type Lang, langOf } from '../platform/i18n.js';
import { dummyPasswordHash, verifyPassword } from './passwords.js';
import {
  deleteSession,
  findLiveSession,
  insertSession,
  type SessionLookupRow,
  setSessionWorkspace,
} from './sessions.repository.js';
import { hashToken, newToken, TOKEN_PATTERN } from './tokens.js';
import { findMembership, findUserByEmail, listMembershipsOfUser, type UserRow } from './users.repository.js';
import { normalizeEmail } from './users.service.js';

/** A session lasts two weeks from sign-in; signing in again starts a new one. */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** The one answer for an unknown email and a wrong password: it tells nothing about accounts. */
export const invalidCredentials = () =>
  new AppError(422, 'invalid_credentials', 'The email or password is not correct.', {
    email: ['The email or password is not correct.'],
  });

export interface PanelSession {
  sessionId: string;
  /** `language`: the panel language they picked; undefined leaves it to the browser and workspace. */
  user: { id: string; email: string; name: string; mustChangePassword: boolean; language: Lang | undefined };
  /** The workspace the panel shows, with the user's role there; undefined when they have none. */
  workspace: { id: string; slug: string; name: string; role: Role; locale: string } | undefined;
}

/** Checks the password in the same time whether or not the email has an account. */
export async function checkCredentials(db: Db, email: string, password: string): Promise<UserRow> {
  const user = await findUserByEmail(db, normalizeEmail(email));
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !ok) throw invalidCredentials();
  return user;
}

/** Signs in: a new session on the user's first workspace. Returns the cookie value (once). */
export async function signIn(
  db: Db,
  email: string,
  password: string,
  now: number,
): Promise<{ token: string; user: UserRow }> {
  const user = await checkCredentials(db, email, password);
  const token = await startSession(db, user.id, undefined, now);
  return { token, user };
}

/** A new session for a user who just proved who they are (sign-in, invite, reset). */
export async function startSession(
  db: Db,
  userId: string,
  workspaceId: string | undefined,
  now: number,
): Promise<string> {
  const memberships = await listMembershipsOfUser(db, userId);
  const workspace = memberships.find((m) => m.workspace_id === workspaceId) ?? memberships[0];
  const token = newToken();
  await insertSession(db, {
    tokenHash: hashToken(token),
    userId,
    workspaceId: workspace?.workspace_id ?? null,
    at: new Date(now),
    expiresAt: new Date(now + SESSION_TTL_MS),
  });
  return token;
}

/** The live session a cookie names, or undefined (unknown, signed out, expired, user deleted). */
export async function resolveSession(
  db: Db,
  token: string | undefined,
  now: number,
): Promise<PanelSession | undefined> {
  if (!token || !TOKEN_PATTERN.test(token)) return undefined;
  const row = await findLiveSession(db, hashToken(token), new Date(now));
  if (!row) return undefined;
  const session = toPanelSession(row);
  if (session.workspace) return session;
  // Removed from the workspace the session showed (or never had one): move to another of theirs.
  const [first] = await listMembershipsOfUser(db, session.user.id);
  if (!first) return session;
  await setSessionWorkspace(db, session.sessionId, first.workspace_id);
  return {
    ...session,
    workspace: {
      id: first.workspace_id,
      slug: first.slug,
      name: first.name,
      role: first.role,
      locale: first.locale,
    },
  };
}

function toPanelSession(row: SessionLookupRow): PanelSession {
  return {
    sessionId: row.session_id,
    user: {
      id: row.user_id,
      email: row.email,
      name: row.name,
      mustChangePassword: row.must_change_password,
      language: langOf(row.language),
    },
    workspace:
      row.workspace_id && row.role && row.workspace_slug && row.workspace_name !== null
        ? {
            id: row.workspace_id,
            slug: row.workspace_slug,
            name: row.workspace_name,
            role: row.role,
            locale: row.workspace_locale ?? 'en-US',
          }
        : undefined,
  };
}

export async function signOut(db: Db, sessionId: string): Promise<void> {
  await deleteSession(db, sessionId);
}

/** The workspace switcher: only to a workspace the user is a member of. */
export async function switchWorkspace(db: Db, session: PanelSession, workspaceId: string): Promise<void> {
  if (!(await findMembership(db, workspaceId, session.user.id))) throw notFound('Workspace');
  await setSessionWorkspace(db, session.sessionId, workspaceId);
}

export { listMembershipsOfUser };
