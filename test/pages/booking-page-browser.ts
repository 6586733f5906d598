import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { ApiApp } from '../../src/platform/http/types.js';
import { openWritePath } from '../../src/write-path.js';
import { API, type TestApp } from '../helpers/build-test-app.js';
import type { FixedClock } from '../helpers/clock.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { launchChromium, SCREENSHOTS } from './page-kit.js';

export { SCREENSHOTS };

/** Browser-test kit of the booking page: the real app listening, Debian's Chromium, offline. */

/** Debian's Chromium, offline (page-kit.ts). */
export const launch = launchChromium;

/** The app on a local port, with a test workspace and API helpers (like buildTestApp, but listening). */
export async function listeningApp(
  clock: FixedClock,
  config: Partial<Config> = {},
): Promise<{ t: TestApp; base: string }> {
  const database = await openTestDatabase();
  const app: ApiApp = await buildApp({
    database,
    config: { ...loadConfig({}), worker: 'off', ...config },
    clock,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  const { createWorkspace } = await import('../../src/workspaces/workspaces.service.js');
  const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
    slug: `pages-${process.pid}`,
    name: 'Studio Nord',
  });
  const headers = { authorization: `Bearer ${apiKey.secret}`, workspace: workspace.slug };
  const t: TestApp = {
    app,
    database,
    db: database.db,
    workspace,
    apiKey,
    headers,
    call: (method, url, body, extra) =>
      app.inject({
        method: method as 'GET',
        url: `${API}${url}`,
        headers: { ...headers, ...extra },
        ...(body === undefined ? {} : { payload: body as object }),
      }),
    async close() {
      await app.close();
      await database.close();
    },
  };
  return { t, base: `http://127.0.0.1:${address.port}` };
}

/**
 * A page that may talk only to 127.0.0.1; anything else is refused and recorded in `blocked`.
 * `errors` collects uncaught exceptions and console errors of the page and its frames.
 */
export async function openPage(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<{ page: Page; blocked: string[]; errors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
    ...options,
  });
  const page = await context.newPage();
  const blocked: string[] = [];
  const errors: string[] = [];
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:') return route.continue();
    blocked.push(url.href);
    return route.abort();
  });
  // Uncaught exceptions and every console error (a CSP refusal is only ever a console error).
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return { page, blocked, errors, close: () => context.close() };
}

/** axe-core: no serious or critical violation on the page as it is now. */
export async function expectAccessible(page: Page, step: string): Promise<void> {
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${step}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

/** Full-page screenshots at 375 and 1280 px wide: docs/screenshots/book-<step>-<width>.png. */
export async function screenshots(page: Page, step: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: path.join(SCREENSHOTS, `book-${step}-${width}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** Nothing on the page is wider than the viewport (no horizontal scrolling at 320 px). */
export async function expectFits(page: Page, width = 320): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize({ width, height: 700 });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  if (before) await page.setViewportSize(before);
}
