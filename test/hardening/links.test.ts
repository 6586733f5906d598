import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { API, buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { createLocation } from '../helpers/factories.js';

/** Links never take the request's Host header, which any client can forge. */
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

/** The customer's links and feed URLs: the link base, never the request's Host. */
describe('booking links and calendar files', () => {
  const forged = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ config: { publicUrl: 'https://book.example.com/' } });
  });
  afterAll(() => t.close());

  it('are under PUBLIC_URL in the API answer, the manage page and its .ics, whatever Host says', async () => {
    const f = await bookingFixture(t);
    const start = new Date(Date.now() + 2 * 86_400_000);
    start.setUTCHours(10, 0, 0, 0);
    const created = await t.app.inject({
      method: 'POST',
      url: `${API}/bookings`,
      headers: { ...t.headers, ...forged },
      payload: {
        reserved_on: start.toISOString().replace('.000Z', 'Z'),
        location_uuid: f.location.id,
        service_uuid: f.haircut.id,
        staffer_uuid: f.anna.id,
        customer_phone: '+4915170000051',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [manage, ical] = created.json().data.links.map((link: { link: string }) => link.link);
    expect(manage).toMatch(/^https:\/\/book\.example\.com\/book\//);
    expect(ical).toBe(`${manage}/calendar.ics`);
    const page = await t.app.inject({ method: 'GET', url: new URL(manage).pathname, headers: forged });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('evil.example');
    const file = await t.app.inject({ method: 'GET', url: new URL(ical).pathname, headers: forged });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain(`UID:${created.json().data.uuid}@book.example.com`);
    expect(file.body).not.toContain('evil.example');
  });
});
