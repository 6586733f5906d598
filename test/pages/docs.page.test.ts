import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/platform/db/client.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium } from './page-kit.js';

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

let database: Database;
let app: ApiApp;
let browser: Browser;
let base: string;

beforeAll(async () => {
  database = await openTestDatabase();
  app = await buildApp({ database, config: { ...loadConfig({}), worker: 'off' } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

describe('/docs', () => {
  it('renders the API reference with no internet access', async () => {
    const page = await browser.newPage();
    const blocked: string[] = [];
    // Offline by construction: anything not for our server is recorded and refused.
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === '127.0.0.1' || url.protocol === 'data:' || url.protocol === 'blob:') {
        return route.continue();
      }
      blocked.push(url.href);
      return route.abort();
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // The page runs under our strict CSP: nothing it needs may be refused by it.
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });

    const response = await page.goto(`${base}/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    // Swagger UI has fetched the OpenAPI document and rendered the operations.
    await page.getByText('/ping', { exact: true }).first().waitFor();
    await expect(page.locator('.opblock').count()).resolves.toBeGreaterThan(3);
    await expect(page.locator('.info .title').innerText()).resolves.toContain('Kairos public API');

    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'docs.png'), fullPage: false });
    expect(blocked).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
    await page.close();
  });
});
