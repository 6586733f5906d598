import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, deleteApiKey, listApiKeys } from '../../src/api-keys/api-keys.service.js';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { openWritePath } from '../../src/write-path.js';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../helpers/build-test-app.js';

/** One tenant cannot fill the tables with API keys or webhooks. */
const MAX_WEBHOOKS = 3;
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ config: { maxWebhooksPerWorkspace: MAX_WEBHOOKS, webhooksAllowPrivate: true } });
});
afterAll(() => t?.close());

const hook = (n: number) => ({ url: `http://127.0.0.1:9/hook-${n}`, events: ['*'] });

describe('per-workspace caps', () => {
  it('default to 50 API keys and 25 webhooks, set by MAX_API_KEYS_PER_WORKSPACE / MAX_WEBHOOKS_PER_WORKSPACE', () => {
    expect(loadConfig({}).maxApiKeysPerWorkspace).toBe(50);
    expect(loadConfig({}).maxWebhooksPerWorkspace).toBe(25);
    const set = loadConfig({ MAX_API_KEYS_PER_WORKSPACE: '5', MAX_WEBHOOKS_PER_WORKSPACE: '7' });
    expect([set.maxApiKeysPerWorkspace, set.maxWebhooksPerWorkspace]).toEqual([5, 7]);
    expect(() => loadConfig({ MAX_WEBHOOKS_PER_WORKSPACE: '0' })).toThrow(/MAX_WEBHOOKS_PER_WORKSPACE/);
  });

  it('refuses a webhook past the cap with a clear 422, per workspace, and frees a place on delete', async () => {
    const created: string[] = [];
    for (let n = 0; n < MAX_WEBHOOKS; n++) {
      const response = await t.call('POST', '/webhooks', hook(n));
      expect(response.statusCode).toBe(201);
      created.push(response.json().data.uuid);
    }
    const refused = await t.call('POST', '/webhooks', hook(99));
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: `This workspace already has ${MAX_WEBHOOKS} webhooks, the most it may have; delete one first.`,
      code: 'limit_reached',
      errors: { webhooks: [expect.stringContaining(`${MAX_WEBHOOKS} webhooks`)] },
    });
    const other = await createOtherWorkspace(t.db);
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/public/v2/webhooks',
      headers: other.headers,
      payload: hook(1),
    });
    expect(elsewhere.statusCode).toBe(201);
    expect((await t.call('DELETE', `/webhooks/${created[0]}`)).statusCode).toBeLessThan(300);
    expect((await t.call('POST', '/webhooks', hook(100))).statusCode).toBe(201);
  });

  it('lets concurrent webhook creates pass the cap only up to it', async () => {
    const other = await createOtherWorkspace(t.db);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        t.app.inject({
          method: 'POST',
          url: '/api/public/v2/webhooks',
          headers: other.headers,
          payload: hook(n),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422, 422, 422]);
    const rows = await t.db
      .selectFrom('webhooks')
      .select('id')
      .where('workspace_id', '=', other.workspace.id)
      .execute();
    expect(rows).toHaveLength(MAX_WEBHOOKS);
  });

  it('refuses an API key past the cap, counting live keys only, also when created concurrently', async () => {
    const { workspace } = await createOtherWorkspace(t.db); // it has its first key already
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, n) =>
        openWritePath(t.db).uow.run(workspace.id, (tx) =>
          createApiKey(tx, workspace.id, `key ${n}`, { limit: 4 }),
        ),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    for (const result of results.filter((r) => r.status === 'rejected')) {
      const error = (result as PromiseRejectedResult).reason as AppError;
      expect(error).toBeInstanceOf(AppError);
      expect([error.statusCode, error.code, Object.keys(error.errors ?? {})]).toEqual([
        422,
        'limit_reached',
        ['api_keys'],
      ]);
    }
    const live = await listApiKeys(t.db, workspace.id);
    expect(live).toHaveLength(4);
    await openWritePath(t.db).uow.run(workspace.id, (tx) =>
      deleteApiKey(tx, workspace.id, live[0]!.uuid, { type: 'system', id: null }),
    );
    await expect(
      openWritePath(t.db).uow.run(workspace.id, (tx) =>
        createApiKey(tx, workspace.id, 'after delete', { limit: 4 }),
      ),
    ).resolves.toMatchObject({
      name: 'after delete',
    });
  });
});
