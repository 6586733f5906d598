import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { createLocation } from '../helpers/factories.js';

/**
 * The app compresses what it sends by the client's Accept-Encoding (brotli first, then gzip), so
 * pages, scripts and JSON are small on the wire without a proxy in front. Through the real app.
 */
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  // Enough locations that the list is well over the 1 kB below which nothing is compressed.
  for (const name of ['Nord', 'Süd', 'Ost', 'West', 'Mitte', 'Hafen']) {
    await createLocation(t.db, t.workspace.id, { name: `Studio ${name}` });
  }
});

afterAll(async () => {
  await t?.close();
});

const list = (acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url: `${API}/locations`,
    headers: { ...t.headers, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
  });

describe('compression', () => {
  it('answers in brotli when the client accepts it, the same JSON once decoded', async () => {
    const plain = await list();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await list('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('answers in gzip when that is all the client takes', async () => {
    const plain = await list();
    const gz = await list('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('leaves small answers and refused encodings alone', async () => {
    const ping = await t.app.inject({
      method: 'GET',
      url: `${API}/ping`,
      headers: { ...t.headers, 'accept-encoding': 'br, gzip' },
    });
    expect(ping.statusCode).toBe(200);
    expect(ping.rawPayload.length).toBeLessThan(1024);
    expect(ping.headers['content-encoding']).toBeUndefined();

    const identity = await list('identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
  });

  it('does not inflate a compressed request body: it is refused as before', async () => {
    const { gzipSync } = await import('node:zlib');
    const response = await t.app.inject({
      method: 'POST',
      url: `${API}/customers`,
      headers: { ...t.headers, 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: gzipSync(JSON.stringify({ first_name: 'Ada', phone: '+4915112345678' })),
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });
});
