import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingFixture } from '../../../test/helpers/booking-fixture.js';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { createLocation } from '../../../test/helpers/factories.js';

/** The server's front page through the real app: links for staff and integrators, and booking pages. */
let t: TestApp;
let unfinished: Awaited<ReturnType<typeof createOtherWorkspace>>;

beforeAll(async () => {
  t = await buildTestApp();
  await bookingFixture(t);
  unfinished = await createOtherWorkspace(t.db);
  await createLocation(t.db, unfinished.workspace.id, { name: 'Empty' });
});
afterAll(() => t.close());

describe('GET /', () => {
  it('is a small HTML page linking the panel, the API docs and the booking pages that take bookings', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.body).toContain('<a href="/panel">Sign in to the panel</a>');
    expect(page.body).toContain('<a href="/docs">API documentation</a>');
    expect(page.body).toContain(`<a href="/book/${t.workspace.slug}">Test Studio</a>`);
    // A workspace that cannot take a booking yet has no page to list.
    expect(page.body).not.toContain(`/book/${unfinished.workspace.slug}`);
  });
});

describe('GET /favicon.ico', () => {
  it('answers the icon, so a browser logs no 404 on its first page', async () => {
    for (const url of ['/favicon.ico', '/favicon.svg']) {
      const icon = await t.app.inject({ method: 'GET', url });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/svg+xml');
      expect(icon.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    }
  });
});
