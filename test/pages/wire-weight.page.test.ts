import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSession } from '../../src/users/sessions.service.js';
import { type BookingFixture, bookingFixture } from '../helpers/booking-fixture.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { makeUser } from '../helpers/panel-client.js';
import { launch, listeningApp } from './booking-page-browser.js';

/**
 * The pages' byte budgets weighed on the wire: what Chromium received for the document and each
 * script, encoded as the app sent it (brotli), not the bytes before compression.
 */
const clock = new FixedClock('2026-03-26T08:00:00Z');
let browser: Browser;
let t: TestApp;
let f: BookingFixture;
let base: string;

beforeAll(async () => {
  ({ t, base } = await listeningApp(clock));
  f = await bookingFixture(t);
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

interface Received {
  url: string;
  type: string;
  encoding: string | undefined;
  bytes: number;
}

/**
 * Loads `url` and returns every response with the body bytes that came over the wire. A response
 * that arrives after the load (the icon) may still be read when the test closes the page: its
 * reading is let go then, not left to reject unhandled.
 */
async function received(page: Page, url: string): Promise<Received[]> {
  const responses: Promise<Received | undefined>[] = [];
  const onResponse = (response: Response) => {
    responses.push(
      (async () => {
        const sizes = await response.request().sizes();
        return {
          url: response.url(),
          type: response.request().resourceType(),
          encoding: (await response.allHeaders())['content-encoding'],
          bytes: sizes.responseBodySize,
        };
      })().catch(() => undefined),
    );
  };
  page.on('response', onResponse);
  await page.goto(url, { waitUntil: 'load' });
  page.off('response', onResponse);
  return (await Promise.all(responses)).filter((item): item is Received => item !== undefined);
}

const sum = (items: Received[]) => items.reduce((total, item) => total + item.bytes, 0);

describe('bytes on the wire', () => {
  it('the booking page’s first step: the document under 15 kB and its scripts under 10 kB, brotli', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const all = await received(page, `${base}/book/${t.workspace.slug}`);
    const documents = all.filter((r) => r.type === 'document');
    const scripts = all.filter((r) => r.type === 'script');
    expect(documents).toHaveLength(1);
    expect(documents[0]!.encoding).toBe('br');
    expect(documents[0]!.bytes).toBeGreaterThan(0);
    expect(documents[0]!.bytes).toBeLessThanOrEqual(15 * 1024);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(script.encoding, script.url).toBe('br');
    expect(sum(scripts)).toBeLessThanOrEqual(10 * 1024);
    await context.close();
  });

  it('the panel’s week calendar: its scripts under 30 kB, brotli', async () => {
    const owner = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]);
    const context = await browser.newContext();
    await context.addCookies([
      {
        name: 'kairos_session',
        value: await startSession(t.db, owner.id, t.workspace.id, clock.now()),
        url: base,
      },
    ]);
    const page = await context.newPage();
    const all = await received(page, `${base}/panel/calendar?location=${f.location.id}&view=week`);
    const document = all.find((r) => r.type === 'document');
    expect(document?.encoding).toBe('br');
    const scripts = all.filter((r) => r.type === 'script');
    expect(scripts.map((s) => new URL(s.url).pathname)).toContain('/assets/islands/calendar.js');
    for (const script of scripts) expect(script.encoding, script.url).toBe('br');
    expect(sum(scripts)).toBeLessThanOrEqual(30 * 1024);
    await context.close();
  });
});
