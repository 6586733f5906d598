import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/api-keys/api-keys.service.js';
import { loadConfig } from '../../src/config.js';
import { registry } from '../../src/platform/metrics/registry.js';
import { openWritePath } from '../../src/write-path.js';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../helpers/build-test-app.js';

/** @fastify/rate-limit on the API, per API key, 429 in our JSON error shape with Retry-After. */
const LIMIT = 3;
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ config: { apiRateLimitPerMinute: LIMIT } });
});
afterAll(() => t?.close());

async function refusals(): Promise<number> {
  const metric = await registry.getSingleMetric('kairos_rate_limit_refusals_total')?.get();
  return metric?.values.find((value) => value.labels.surface === 'api')?.value ?? 0;
}

describe('API rate limit', () => {
  it('defaults to 300 a minute and is set by API_RATE_LIMIT_PER_MINUTE (0 = off)', () => {
    expect(loadConfig({}).apiRateLimitPerMinute).toBe(300);
    expect(loadConfig({ API_RATE_LIMIT_PER_MINUTE: '50' }).apiRateLimitPerMinute).toBe(50);
    expect(loadConfig({ API_RATE_LIMIT_PER_MINUTE: '0' }).apiRateLimitPerMinute).toBe(0);
    expect(() => loadConfig({ API_RATE_LIMIT_PER_MINUTE: 'many' })).toThrow(/API_RATE_LIMIT_PER_MINUTE/);
  });

  it('counts per API key, says what is left, and answers 429 in our shape with Retry-After', async () => {
    const refusedBefore = await refusals();
    const remaining: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const response = await t.call('GET', '/locations');
      expect(response.statusCode).toBe(200);
      expect(response.headers['ratelimit-limit']).toBe(String(LIMIT));
      remaining.push(String(response.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await t.call('GET', '/locations');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: expect.stringMatching(/^Too many requests/),
      code: 'rate_limited',
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['ratelimit-limit']).toBe(String(LIMIT));
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(Number(refused.headers['ratelimit-reset'])).toBeGreaterThan(0);
    // Writes count against the same budget and are refused before they run.
    const write = await t.call('POST', '/locations', { name: 'Refused', timezone: 'UTC' });
    expect(write.statusCode).toBe(429);
    expect(
      (await t.db.selectFrom('locations').select('id').where('name', '=', 'Refused').execute()).length,
    ).toBe(0);
    expect(await refusals()).toBe(refusedBefore + 2);

    // Another key of the same workspace has its own budget; so has another workspace's key.
    const second = await openWritePath(t.db).uow.run(t.workspace.id, (tx) =>
      createApiKey(tx, t.workspace.id, 'second'),
    );
    const withSecond = await t.call('GET', '/locations', undefined, {
      authorization: `Bearer ${second.secret}`,
    });
    expect(withSecond.statusCode).toBe(200);
    const other = await createOtherWorkspace(t.db);
    const otherAnswer = await t.app.inject({
      method: 'GET',
      url: '/api/public/v2/locations',
      headers: other.headers,
    });
    expect(otherAnswer.statusCode).toBe(200);
  });

  it('is off when set to 0', async () => {
    const unlimited = await buildTestApp({ database: t.database, config: { apiRateLimitPerMinute: 0 } });
    try {
      for (let i = 0; i < LIMIT + 2; i++) {
        const response = await unlimited.call('GET', '/locations');
        expect(response.statusCode).toBe(200);
        expect(response.headers['ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await unlimited.close();
    }
  });
});
