import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { createLocation } from '../helpers/factories.js';

/** Issue 18 point 3: links never take the request's Host header, which any client can forge. */
describe('pagination links', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };

  async function pageLinks(t: TestApp) {
    await createLocation(t.db, t.workspace.id, { name: 'A' });
    await createLocation(t.db, t.workspace.id, { name: 'B' });
    const response = await t.app.inject({
      method: 'GET',
      url: `${API}/locations?per_page=1`,
      headers: { ...t.headers, ...forged },
    });
    expect(response.statusCode).toBe(200);
    return response.json().links as Record<string, string | null>;
  }

  let withBase: TestApp;
  let without: TestApp;
  beforeAll(async () => {
    withBase = await buildTestApp({ config: { publicUrl: 'https://book.example.com/' } });
    without = await buildTestApp({ database: withBase.database, slug: `links-${process.pid}` });
    apps.push(without, withBase);
  });

  it('are absolute under PUBLIC_URL when it is set, whatever Host says', async () => {
    const links = await pageLinks(withBase);
    expect(links.first).toBe(`https://book.example.com${API}/locations?per_page=1&page=1`);
    expect(links.next).toBe(`https://book.example.com${API}/locations?per_page=1&page=2`);
    expect(JSON.stringify(links)).not.toContain('evil');
  });

  it('are relative to the host without PUBLIC_URL, never built from Host', async () => {
    const links = await pageLinks(without);
    expect(links).toEqual({
      first: `${API}/locations?per_page=1&page=1`,
      last: `${API}/locations?per_page=1&page=2`,
      prev: null,
      next: `${API}/locations?per_page=1&page=2`,
    });
  });
});
