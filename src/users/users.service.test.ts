import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers/test-db.js';
import type { Database } from '../platform/db/client.js';
import { createWorkspace } from '../workspaces/workspaces.service.js';
import { openWritePath } from '../write-path.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { resolveSession, signIn, signOut, switchWorkspace } from './sessions.service.js';

const SYSTEM = { type: 'system' as const, id: null };

import {
  acceptInvite,
  addMember,
  changeRole,
  createPasswordReset,
  createUser,
  deleteUser,
  inviteMember,
  removeMember,
  resetPassword,
} from './users.service.js';

let database: Database;
const now = Date.parse('2026-03-01T10:00:00Z');
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('passwords', () => {
  it('verifies the password it hashed and nothing else; the hash carries its own parameters', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(hash).not.toContain('correct');
    await expect(verifyPassword('correct horse battery', hash)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', hash)).resolves.toBe(false);
    await expect(verifyPassword('x', 'not-a-hash')).resolves.toBe(false);
  });
});

describe('users and sessions', () => {
  it('a one-time password signs in once the user exists; unknown email and wrong password answer alike', async () => {
    const { user, oneTimePassword } = await createUser(database.db, { email: ' Owner@Example.com ' }, now);
    expect(user.email).toBe('owner@example.com');
    expect(user.must_change_password).toBe(true);
    expect(oneTimePassword).toMatch(/^[A-Za-z0-9_-]{20}$/);
    const wrong = await signIn(database.db, 'owner@example.com', 'nope-nope-nope', now).catch((e) => e);
    const unknown = await signIn(database.db, 'nobody@example.com', 'nope-nope-nope', now).catch((e) => e);
    expect(wrong).toMatchObject({ code: 'invalid_credentials' });
    expect({ ...unknown, message: unknown.message }).toEqual({ ...wrong, message: wrong.message });
    const { token } = await signIn(database.db, 'OWNER@example.com', oneTimePassword as string, now);
    const session = await resolveSession(database.db, token, now);
    expect(session?.user).toMatchObject({ email: 'owner@example.com', mustChangePassword: true });
    expect(session?.workspace).toBeUndefined();
  });

  it('sign-out and deleting the user end the session at once; an expired session is refused', async () => {
    await createUser(database.db, { email: 'gone@example.com', password: 'long enough password' }, now);
    const first = await signIn(database.db, 'gone@example.com', 'long enough password', now);
    const second = await signIn(database.db, 'gone@example.com', 'long enough password', now);
    const session = await resolveSession(database.db, first.token, now);
    expect(session).toBeDefined();
    await signOut(database.db, session!.sessionId);
    expect(await resolveSession(database.db, first.token, now)).toBeUndefined();
    expect(await resolveSession(database.db, second.token, now)).toBeDefined();
    expect(await resolveSession(database.db, second.token, now + 15 * 24 * 3600 * 1000)).toBeUndefined();
    await deleteUser(database.db, 'gone@example.com');
    expect(await resolveSession(database.db, second.token, now)).toBeUndefined();
  });

  it('roles: the last owner stays; a removed member loses the workspace on the next request', async () => {
    const a = (await createWorkspace(openWritePath(database.db).uow, { slug: 'roles-a', name: 'A' }))
      .workspace;
    const b = (await createWorkspace(openWritePath(database.db).uow, { slug: 'roles-b', name: 'B' }))
      .workspace;
    const { user: owner } = await createUser(
      database.db,
      { email: 'boss@example.com', password: 'long enough password' },
      now,
    );
    await addMember(database.db, a.id, { email: 'boss@example.com', role: 'owner' }, now, SYSTEM);
    await addMember(database.db, b.id, { email: 'boss@example.com', role: 'staff' }, now, SYSTEM);
    await expect(
      changeRole(openWritePath(database.db).uow, a.id, owner.id, 'admin', SYSTEM),
    ).rejects.toMatchObject({
      code: 'last_owner',
    });
    await expect(removeMember(openWritePath(database.db).uow, a.id, owner.id, SYSTEM)).rejects.toMatchObject({
      code: 'last_owner',
    });
    await expect(
      addMember(database.db, a.id, { email: 'boss@example.com', role: 'chief' }, now, SYSTEM),
    ).rejects.toMatchObject({ errors: { role: [expect.any(String)] } });

    const { token } = await signIn(database.db, 'boss@example.com', 'long enough password', now);
    const session = await resolveSession(database.db, token, now);
    expect(session?.workspace).toMatchObject({ slug: 'roles-a', role: 'owner' });
    await switchWorkspace(database.db, session!, b.id);
    expect((await resolveSession(database.db, token, now))?.workspace).toMatchObject({
      slug: 'roles-b',
      role: 'staff',
    });
    const stranger = (await createWorkspace(openWritePath(database.db).uow, { slug: 'roles-c', name: 'C' }))
      .workspace;
    await expect(switchWorkspace(database.db, session!, stranger.id)).rejects.toMatchObject({
      statusCode: 404,
    });
    // Removed from B: the session falls back to A.
    await addMember(database.db, b.id, { email: 'boss@example.com', role: 'owner' }, now, SYSTEM);
    const { user: other } = await createUser(
      database.db,
      { email: 'other-owner@example.com', password: 'long enough password' },
      now,
    );
    await addMember(database.db, b.id, { email: other.email, role: 'owner' }, now, SYSTEM);
    await removeMember(openWritePath(database.db).uow, b.id, owner.id, SYSTEM);
    expect((await resolveSession(database.db, token, now))?.workspace).toMatchObject({ slug: 'roles-a' });
  });

  it('an invite is used once; a reset link is used once and ends every session', async () => {
    const ws = (await createWorkspace(openWritePath(database.db).uow, { slug: 'invites', name: 'Inv' }))
      .workspace;
    const invite = await inviteMember(
      database.db,
      ws.id,
      { email: 'New@Example.com', role: 'admin' },
      null,
      now,
    );
    const stored = await database.db.selectFrom('invites').select('token_hash').execute();
    expect(stored.map((row) => row.token_hash)).not.toContain(invite.token);
    await expect(
      acceptInvite(database.db, invite.token, { password: 'short' }, verifyAny, now),
    ).rejects.toMatchObject({ errors: { password: [expect.any(String)] } });
    const { user } = await acceptInvite(
      database.db,
      invite.token,
      { name: 'New Person', password: 'a new long password' },
      verifyAny,
      now,
    );
    expect(user.email).toBe('new@example.com');
    await expect(
      acceptInvite(database.db, invite.token, { password: 'a new long password' }, verifyAny, now),
    ).rejects.toMatchObject({ statusCode: 404 });

    const { token } = await signIn(database.db, 'new@example.com', 'a new long password', now);
    expect((await resolveSession(database.db, token, now))?.workspace).toMatchObject({ role: 'admin' });
    const reset = await createPasswordReset(database.db, 'new@example.com', now);
    await resetPassword(database.db, reset, 'another long password', now);
    expect(await resolveSession(database.db, token, now)).toBeUndefined();
    await expect(resetPassword(database.db, reset, 'third long password', now)).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(signIn(database.db, 'new@example.com', 'another long password', now)).resolves.toBeDefined();
  });
});

const verifyAny = (user: { password_hash: string }, password: string) =>
  verifyPassword(password, user.password_hash);
