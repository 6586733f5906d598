import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import { watchOutbox } from '../../src/outbox/outbox-metrics.js';
import { startMetricsServer } from '../../src/platform/metrics/endpoint.js';
import { watchDeliveries } from '../../src/webhooks/delivery-metrics.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { openTestDatabase } from '../helpers/test-db.js';

/** GET /metrics (Prometheus text), its protection, and request ids. */
const TOKEN = 'metrics-test-token';

/** The value of one series in Prometheus text, or undefined when it is absent. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

let t: TestApp;
let stopWatching: () => void;
let stopWatchingDeliveries: () => void;

async function scrape(): Promise<string> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.body;
}

beforeAll(async () => {
  t = await buildTestApp({ config: { metricsToken: TOKEN, webhooksAllowPrivate: true } });
  stopWatching = watchOutbox(t.database);
  stopWatchingDeliveries = watchDeliveries(t.database);
});
afterAll(async () => {
  stopWatching?.();
  stopWatchingDeliveries?.();
  await t?.close();
});

describe('GET /metrics', () => {
  it('needs the metrics token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'invalid_token' });
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    // An API key is not a metrics token.
    const apiKey = await t.app.inject({ method: 'GET', url: '/metrics', headers: t.headers });
    expect(apiKey.statusCode).toBe(401);
  });

  it('is not served at all without a token or a metrics port', async () => {
    const database = await openTestDatabase();
    const app = await buildApp({ database, config: { ...loadConfig({}), worker: 'off' } });
    try {
      const response = await app.inject({ method: 'GET', url: '/metrics' });
      expect(response.statusCode).toBe(404);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('counts requests and their latency by route pattern and status', async () => {
    const before = series(await scrape(), 'kairos_http_requests_total', {
      method: 'GET',
      route: `${API}/locations`,
      status: '200',
    });
    // Counters live for the whole process, which runs other test files before this one: deltas.
    const notFound = { method: 'GET', route: `${API}/locations/:locationUuid`, status: '404' };
    const notFoundBefore = series(await scrape(), 'kairos_http_requests_total', notFound) ?? 0;
    for (let i = 0; i < 3; i++) expect((await t.call('GET', '/locations')).statusCode).toBe(200);
    expect((await t.call('GET', '/locations/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const text = await scrape();
    const labels = { method: 'GET', route: `${API}/locations`, status: '200' };
    expect(series(text, 'kairos_http_requests_total', labels)).toBe((before ?? 0) + 3);
    expect(series(text, 'kairos_http_requests_total', notFound)).toBe(notFoundBefore + 1);
    expect(series(text, 'kairos_http_request_duration_seconds_count', labels)).toBe((before ?? 0) + 3);
    expect(series(text, 'kairos_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(
      (before ?? 0) + 3,
    );
    // A raw URL never becomes a label (one series per id would grow without bound).
    expect(text).not.toContain('00000000-0000-4000-8000-000000000000');
  });

  it('shows slot-cache hits and misses', async () => {
    const f = await bookingFixture(t);
    const url = `/locations/${f.location.id}/time-slots?service_uuid=${f.haircut.id}`;
    const before = await scrape();
    const misses0 = series(before, 'kairos_slot_cache_lookups_total', { result: 'miss' }) ?? 0;
    const hits0 = series(before, 'kairos_slot_cache_lookups_total', { result: 'hit' }) ?? 0;
    expect((await t.call('GET', url)).statusCode).toBe(200);
    expect((await t.call('GET', url)).statusCode).toBe(200);
    const after = await scrape();
    // The first answer is computed, the second comes from the cache (unless a minute ended between).
    const misses = (series(after, 'kairos_slot_cache_lookups_total', { result: 'miss' }) ?? 0) - misses0;
    const hits = (series(after, 'kairos_slot_cache_lookups_total', { result: 'hit' }) ?? 0) - hits0;
    expect(misses + hits).toBe(2);
    expect(misses).toBeGreaterThanOrEqual(1);
  });

  it('shows the outbox and deliveries waiting, with the age of the oldest, and the store up', async () => {
    const webhook = await t.call('POST', '/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['*'],
    });
    expect(webhook.statusCode).toBe(201);
    const uuid = webhook.json().data.uuid;
    const before = series(await scrape(), 'kairos_webhook_deliveries_undelivered') ?? 0;
    expect((await t.call('POST', `/webhooks/${uuid}/test`)).statusCode).toBe(202);
    expect((await t.call('POST', `/webhooks/${uuid}/test`)).statusCode).toBe(202);
    const text = await scrape();
    expect(series(text, 'kairos_webhook_deliveries_undelivered')).toBe(before + 2);
    expect(series(text, 'kairos_webhook_deliveries_oldest_undelivered_age_seconds')).toBeGreaterThanOrEqual(
      0,
    );
    expect(series(text, 'kairos_outbox_undispatched_events')).toBeGreaterThanOrEqual(0);
    expect(series(text, 'kairos_outbox_oldest_undispatched_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(series(text, 'kairos_store_up')).toBe(1);
  });

  it('shows process memory and, on PostgreSQL, the pool', async () => {
    const text = await scrape();
    expect(series(text, 'kairos_process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(series(text, 'kairos_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    if (t.database.kind === 'postgres') {
      expect(series(text, 'kairos_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(series(text, 'kairos_db_pool_connections', { state: 'waiting' })).toBe(0);
    }
  });

  it('is served on its own port (METRICS_PORT), with the token if one is set', async () => {
    const server = await startMetricsServer({
      metricsPort: 0,
      metricsHost: '127.0.0.1',
      metricsToken: TOKEN,
    });
    try {
      const url = `http://127.0.0.1:${server!.port}/metrics`;
      expect((await fetch(url)).status).toBe(401);
      const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(200);
      expect(series(await response.text(), 'kairos_process_resident_memory_bytes')).toBeGreaterThan(0);
      expect((await fetch(`http://127.0.0.1:${server!.port}/other`)).status).toBe(404);
    } finally {
      await server?.close();
    }
    // With a metrics port, the API port does not serve /metrics.
    const database = await openTestDatabase();
    const app = await buildApp({
      database,
      config: { ...loadConfig({}), worker: 'off', metricsPort: 0, metricsToken: TOKEN },
    });
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('request ids', () => {
  it('answers every request with an X-Request-Id, keeping a sane incoming one', async () => {
    const fresh = await t.call('GET', '/locations');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const other = await t.call('GET', '/locations');
    expect(other.headers['x-request-id']).not.toBe(fresh.headers['x-request-id']);
    const kept = await t.call('GET', '/locations', undefined, { 'x-request-id': 'lb-1234.abc' });
    expect(kept.headers['x-request-id']).toBe('lb-1234.abc');
    for (const insane of ['a b', 'x'.repeat(200), '<script>']) {
      const replaced = await t.call('GET', '/locations', undefined, { 'x-request-id': insane });
      expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const unknown = await t.app.inject({ method: 'GET', url: '/nowhere' });
    expect(unknown.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts the request id of a 5xx in its body and in its log line', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const database = await openTestDatabase();
    const app = await buildApp({
      database,
      config: { ...loadConfig({}), worker: 'off' },
      logger: pino({ level: 'info' }, stream),
    });
    await app.ready();
    // The store goes away under the app: every API call now fails inside.
    await database.close();
    const response = await app.inject({
      method: 'GET',
      url: `${API}/locations`,
      headers: {
        authorization: `Bearer secret_${'a'.repeat(43)}`,
        workspace: 'x',
        'x-request-id': 'trace-5xx',
      },
    });
    await app.close();
    expect(response.statusCode).toBeGreaterThanOrEqual(500);
    expect(response.headers['x-request-id']).toBe('trace-5xx');
    expect(response.json()).toMatchObject({ code: expect.any(String), request_id: 'trace-5xx' });
    const logged = lines.filter((line) => line.reqId === 'trace-5xx');
    expect(logged.some((line) => (line.level as number) >= 40 && line.err)).toBe(true);
  });
});
