import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  buildTestApp,
  createOtherWorkspace,
  type TestApp,
} from '../../../test/helpers/build-test-app.js';
import { createApiKey, deleteApiKey, generateSecret, hashSecret } from '../../api-keys/api-keys.service.js';
import { recordStatements } from '../../platform/db/statement-recorder.js';
import { openWritePath } from '../../write-path.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const ping = (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `${API}/ping`, headers });

describe('API-key authentication', () => {
  it('accepts a valid key with its workspace and answers ping', async () => {
    const response = await ping(t.headers);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.ping).toBe('pong');
    expect(body.version).toMatch(/^v\d+\.\d+\.\d+$/);
  });

  const invalid: [string, () => Record<string, string>][] = [
    ['no Authorization header', () => ({ workspace: t.workspace.slug })],
    [
      'a non-bearer scheme',
      () => ({ authorization: `Basic ${t.apiKey.secret}`, workspace: t.workspace.slug }),
    ],
    ['a malformed secret', () => ({ authorization: 'Bearer secret_short', workspace: t.workspace.slug })],
    [
      'a token without the secret_ prefix',
      () => ({ authorization: `Bearer ${t.apiKey.secret.slice(7)}`, workspace: t.workspace.slug }),
    ],
    [
      'an unknown well-formed secret',
      () => ({ authorization: `Bearer ${generateSecret()}`, workspace: t.workspace.slug }),
    ],
    ['an unknown workspace slug', () => ({ ...t.headers, workspace: 'no-such-workspace' })],
  ];
  for (const [name, headers] of invalid) {
    it(`rejects ${name} with 403 Bearer token is invalid`, async () => {
      const response = await ping(headers());
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: 'Bearer token is invalid', code: 'invalid_token' });
    });
  }

  it('rejects a missing Workspace header with 400', async () => {
    const response = await ping({ authorization: t.headers.authorization! });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('workspace_header_missing');
  });

  it("rejects another workspace's key used with this workspace's slug", async () => {
    const other = await createOtherWorkspace(t.db);
    const response = await ping({ authorization: other.headers.authorization, workspace: t.workspace.slug });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Bearer token is invalid');
    // and the other key still works with its own workspace
    expect((await ping(other.headers)).statusCode).toBe(200);
  });

  it('refuses a deleted key on the very next request', async () => {
    const key = await openWritePath(t.db).uow.run(t.workspace.id, (tx) =>
      createApiKey(tx, t.workspace.id, 'to delete'),
    );
    const headers = { authorization: `Bearer ${key.secret}`, workspace: t.workspace.slug };
    expect((await ping(headers)).statusCode).toBe(200);
    await openWritePath(t.db).uow.run(t.workspace.id, (tx) =>
      deleteApiKey(tx, t.workspace.id, key.uuid, { type: 'system', id: null }),
    );
    const response = await ping(headers);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Bearer token is invalid');
  });

  it('finds the workspace and the key in one statement once the slug is known, and reads both afresh', async () => {
    expect((await ping(t.headers)).statusCode).toBe(200);
    const statements: string[] = [];
    const stop = recordStatements((statement) => statements.push(statement.sql));
    try {
      expect((await ping(t.headers)).statusCode).toBe(200);
    } finally {
      stop();
    }
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/from "workspaces" as "w" inner join "api_keys" as "k"/);
    // The workspace row is not remembered, only its id: a change is seen on the next request.
    await t.db
      .updateTable('workspaces')
      .set({ name: 'Renamed by the test' })
      .where('id', '=', t.workspace.id)
      .execute();
    const workspace = await t.app.inject({ method: 'GET', url: `${API}/workspace`, headers: t.headers });
    expect(workspace.json().data.name).toBe('Renamed by the test');
  });

  it("answers the workspace row exactly as a full read gives it, and any column's change at once", async () => {
    const { findKeyWithWorkspace } = await import('../../api-keys/api-keys.repository.js');
    const { findWorkspaceBySlug } = await import('../../workspaces/workspaces.repository.js');
    const hash = hashSecret(t.apiKey.secret);
    const read = async () =>
      (await findKeyWithWorkspace(t.db, t.workspace.id, t.workspace.slug, hash))!.workspace;
    expect(await read()).toEqual(await findWorkspaceBySlug(t.db, t.workspace.slug));
    // A JSON column changed by nothing but a nested value, and a timestamp: both seen.
    await t.db
      .updateTable('workspaces')
      .set({
        embed_origins: JSON.stringify(['https://shop.example']),
        updated_at: new Date('2030-01-02T03:04:05.678Z'),
      })
      .where('id', '=', t.workspace.id)
      .execute();
    const changed = await read();
    expect(changed.embed_origins).toEqual(['https://shop.example']);
    expect(changed.updated_at).toEqual(new Date('2030-01-02T03:04:05.678Z'));
    expect(changed).toEqual(await findWorkspaceBySlug(t.db, t.workspace.slug));
    // Requests share the row: it cannot be changed by one of them.
    expect(Object.isFrozen(changed) && Object.isFrozen(changed.embed_origins)).toBe(true);
  });

  it('stores only a hash of the secret', async () => {
    const key = await openWritePath(t.db).uow.run(t.workspace.id, (tx) =>
      createApiKey(tx, t.workspace.id, 'hash check'),
    );
    const row = await t.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.uuid)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(key.secret.slice(7));
    expect(row.secret_hash).toBe(hashSecret(key.secret));
    expect(key.secret).toMatch(/^secret_[A-Za-z0-9_-]{43}$/);
  });

  it('serves the OpenAPI document without a key, and nothing else', async () => {
    const doc = await t.app.inject({ method: 'GET', url: `${API}/openapi.json` });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    const workspace = await t.app.inject({ method: 'GET', url: `${API}/workspace` });
    expect(workspace.statusCode).toBe(403);
  });
});
