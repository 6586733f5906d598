import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { openTestDatabase } from '../helpers/test-db.js';

let database: Database;
let app: ApiApp;
beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({ database, config: { ...loadConfig({}), worker: 'off' } });
  await app.ready();
});
afterAll(() => app?.close());

describe('GET /health', () => {
  it('answers 200 without a key while the store answers', async () => {
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 once the store is unreachable', async () => {
    expect(await database.ping()).toBe(true);
    await database.close();
    expect(await database.ping()).toBe(false);
    const response = await app.inject({ method: 'GET', url: '/health' });
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({
      status: 'unavailable',
      message: 'The store is unreachable.',
      code: 'service_unavailable',
    });
  });
});
