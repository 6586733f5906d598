import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

/** Nosniff and no-store on the API, a strict CSP on HTML pages. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

describe('API security headers', () => {
  it('marks authenticated answers nosniff and no-store, errors included', async () => {
    for (const response of [
      await t.call('GET', '/locations'),
      await t.call('POST', '/locations', { name: '' }),
      await t.call('GET', '/locations/00000000-0000-4000-8000-000000000000'),
    ]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('marks unauthenticated API answers nosniff', async () => {
    const refused = await t.app.inject({ method: 'GET', url: '/api/public/v2/locations' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    const openapi = await t.app.inject({ method: 'GET', url: '/api/public/v2/openapi.json' });
    expect(openapi.statusCode).toBe(200);
    expect(openapi.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('HTML pages', () => {
  it('serve /docs with a strict Content-Security-Policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives['default-src']).toBe("'none'");
    expect(directives['script-src']).toBe("'self'");
    // 'self' and at most the hash of one fixed inline style of Swagger UI.
    expect(directives['style-src']).toMatch(/^'self'( 'sha256-[A-Za-z0-9+/=]+')?$/);
    expect(directives['object-src']).toBe("'none'");
    expect(directives['base-uri']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https:|\*/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // The page's own assets carry it too, and nothing of it leaks onto the JSON API.
    const api = await t.call('GET', '/locations');
    expect(api.headers['content-security-policy']).toBeUndefined();
  });
});
