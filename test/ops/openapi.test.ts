import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/app/app.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t?.close());

/**
 * Every (method, path) Fastify's router holds, read from printRoutes' tree: each line is one
 * path segment under the line above it with less indentation (4 characters per level).
 */
function registeredRoutes(tree: string): { method: string; path: string }[] {
  const routes: { method: string; path: string }[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, path: stack.join('') });
  }
  return routes;
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and served without a key', async () => {
    const response = await t.app.inject({ method: 'GET', url: `${API_PREFIX}/openapi.json` });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(doc.servers).toEqual([{ url: API_PREFIX }]);
  });

  it('lists every route the app registers under the API prefix, and only those', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: `${API_PREFIX}/openapi.json` })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const expected = registeredRoutes(t.app.printRoutes({ commonPrefix: false }))
      // HEAD routes are Fastify's automatic twins of GET routes; the document itself is not an operation.
      .filter((route) => route.path.startsWith(`${API_PREFIX}/`) && route.method !== 'HEAD')
      .filter((route) => route.path !== `${API_PREFIX}/openapi.json`)
      .map((route) => {
        const path = route.path.slice(API_PREFIX.length).replace(/:(\w+)/g, '{$1}');
        return `${route.method} ${path}`;
      })
      .sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((key) => ['get', 'put', 'post', 'patch', 'delete'].includes(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    // Sanity of the tree reading: the routes every build has.
    expect(expected).toEqual(
      expect.arrayContaining([
        'GET /ping',
        'GET /workspace',
        'GET /locations/{locationUuid}/time-slots/next',
      ]),
    );
    expect(documented).toEqual(expected);
  });
});
