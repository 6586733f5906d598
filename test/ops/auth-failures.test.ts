import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, generateSecret } from '../../src/api-keys/api-keys.service.js';
import { AUTH_FAILURE_WINDOW_MS } from '../../src/app/api/api-auth.js';
import { loadConfig } from '../../src/config.js';
import { registry } from '../../src/platform/metrics/registry.js';
import { openWritePath } from '../../src/write-path.js';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';

/**
 * Failed API authentications count against the client's address: past
 * API_AUTH_FAILURES_PER_MINUTE (default 30) its requests get 429 `rate_limited` with Retry-After
 * until the minute is over, before any key lookup. Other addresses, and keys that already
 * worked on this process, are not held up by it.
 */
const LIMIT = loadConfig({}).apiAuthFailuresPerMinute;
const clock = new FixedClock('2026-09-01T08:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ clock });
});
afterAll(() => t?.close());

const ping = (remoteAddress: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `${API}/ping`, headers, remoteAddress });
const wrongKey = () => ({ authorization: `Bearer ${generateSecret()}`, workspace: t.workspace.slug });

async function refusals(): Promise<number> {
  const metric = await registry.getSingleMetric('kairos_rate_limit_refusals_total')?.get();
  return metric?.values.find((value) => value.labels.surface === 'api-auth')?.value ?? 0;
}

describe('failed API authentications per address', () => {
  it('defaults to 30 a minute and is set by API_AUTH_FAILURES_PER_MINUTE (0 = off)', () => {
    expect(LIMIT).toBe(30);
    expect(loadConfig({ API_AUTH_FAILURES_PER_MINUTE: '5' }).apiAuthFailuresPerMinute).toBe(5);
    expect(loadConfig({ API_AUTH_FAILURES_PER_MINUTE: '0' }).apiAuthFailuresPerMinute).toBe(0);
    expect(() => loadConfig({ API_AUTH_FAILURES_PER_MINUTE: '-1' })).toThrow(/API_AUTH_FAILURES_PER_MINUTE/);
  });

  it('400 wrong keys in a row: the first 30 are 403, the rest 429 in our shape with Retry-After', async () => {
    // A key used once before the flood; one made during it has never been seen here.
    expect((await ping('10.0.0.1', t.headers)).statusCode).toBe(200);
    const refusedBefore = await refusals();
    const statuses: number[] = [];
    for (let i = 0; i < 400; i++) {
      // Missing and malformed keys count too.
      const headers =
        i % 3 === 0
          ? wrongKey()
          : i % 3 === 1
            ? { authorization: 'Bearer nonsense', workspace: t.workspace.slug }
            : { workspace: t.workspace.slug };
      const response = await ping('10.0.0.1', headers);
      statuses.push(response.statusCode);
      if (response.statusCode === 429 && statuses.length === LIMIT + 1) {
        expect(response.json()).toEqual({
          message: expect.stringMatching(/^Too many/),
          code: 'rate_limited',
        });
        expect(Number(response.headers['retry-after'])).toBe(AUTH_FAILURE_WINDOW_MS / 1000);
      }
    }
    expect(statuses.slice(0, LIMIT).every((status) => status === 403)).toBe(true);
    expect(statuses.slice(LIMIT).every((status) => status === 429)).toBe(true);
    expect(await refusals()).toBe(refusedBefore + 400 - LIMIT);

    // The key that worked from this address before still does; a new one waits for the window.
    expect((await ping('10.0.0.1', t.headers)).statusCode).toBe(200);
    const fresh = await openWritePath(t.db).uow.run(t.workspace.id, (tx) =>
      createApiKey(tx, t.workspace.id, 'fresh'),
    );
    const freshHeaders = { authorization: `Bearer ${fresh.secret}`, workspace: t.workspace.slug };
    expect((await ping('10.0.0.1', freshHeaders)).statusCode).toBe(429);
    // Another address is not affected: its wrong key is a 403, its good keys work.
    expect((await ping('10.0.0.2', wrongKey())).statusCode).toBe(403);
    expect((await ping('10.0.0.2', freshHeaders)).statusCode).toBe(200);

    // Retry-After counts down, and when the window is over the address starts afresh.
    clock.advance(45_000);
    expect(Number((await ping('10.0.0.1', wrongKey())).headers['retry-after'])).toBe(15);
    clock.advance(15_000);
    expect((await ping('10.0.0.1', wrongKey())).statusCode).toBe(403);
    expect((await ping('10.0.0.1', freshHeaders)).statusCode).toBe(200);
  });

  it('counts IPv6 clients by their /64, and a missing Workspace header (400) not at all', async () => {
    for (let i = 0; i < LIMIT; i++) {
      const response = await ping(`2001:db8:1:2::${(i + 1).toString(16)}`, wrongKey());
      expect(response.statusCode).toBe(403);
    }
    expect((await ping('2001:db8:1:2:ffff::1', wrongKey())).statusCode).toBe(429);
    expect((await ping('2001:db8:1:3::1', wrongKey())).statusCode).toBe(403);
    for (let i = 0; i < LIMIT + 5; i++) {
      const response = await ping('10.0.0.3', { authorization: t.headers.authorization! });
      expect(response.statusCode).toBe(400);
    }
    expect((await ping('10.0.0.3', wrongKey())).statusCode).toBe(403);
  });

  it('is off when set to 0', async () => {
    const unlimited = await buildTestApp({ database: t.database, config: { apiAuthFailuresPerMinute: 0 } });
    try {
      for (let i = 0; i < LIMIT + 10; i++) {
        const response = await unlimited.app.inject({
          method: 'GET',
          url: `${API}/ping`,
          headers: wrongKey(),
          remoteAddress: '10.0.0.9',
        });
        expect(response.statusCode).toBe(403);
      }
    } finally {
      await unlimited.close();
    }
  });
});
