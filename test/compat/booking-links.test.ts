import type { AddressInfo } from 'node:net';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookWorker } from '../../src/webhooks/delivery-worker.js';
import { outboxHandlers } from '../../src/workers.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { API, buildTestApp, createOtherWorkspace, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { drainWebhooks } from '../helpers/webhook-events.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import type { Json } from './strict-client.js';

/**
 * A booking answer's `links[]` and a legacy webhook body's `booking_page` /
 * `booking_hash_id` are the customer's manage link, and they open it. Everything over real HTTP:
 * the app listens on a loopback port (no PUBLIC_URL, so links are under the address it listens
 * on), the worker delivers to a real receiver, and the links are fetched as a customer would.
 */
const clock = new FixedClock('2026-09-01T08:00:00Z');
let t: TestApp;
let base: string;
let receiver: WebhookReceiver;
let f: Awaited<ReturnType<typeof bookingFixture>>;

beforeAll(async () => {
  t = await buildTestApp({ clock, config: { webhooksAllowPrivate: true } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  receiver = await WebhookReceiver.start();
  f = await bookingFixture(t);
});

afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function api(method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${API}${path}`, {
    method,
    headers: { ...t.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

/** Flips one character of the signed half of a token: a link nobody was given. */
function forge(token: string): string {
  const at = token.length - 5;
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
}

describe('the links of a booking', () => {
  it('open the manage page and its calendar file, from the API answer and from a legacy webhook body', async () => {
    const hook = await api('POST', '/webhooks', {
      url: receiver.url,
      events: ['booking-created'],
      format: 'legacy',
    });
    expect(hook.status).toBe(201);
    const created = await api('POST', '/bookings', {
      reserved_on: '2026-09-10T08:00:00Z', // 10:00 in Berlin
      location_uuid: f.location.id,
      service_uuid: f.haircut.id,
      staffer_uuid: f.anna.id,
      customer_phone: '+4915170000021',
      customer_first_name: 'Erika',
    });
    expect(created.status).toBe(201);
    const booking = created.json.data;
    expect(booking.links.map((link: { type: string }) => link.type)).toEqual(['manage', 'ical']);
    const [manage, ical] = booking.links.map((link: { link: string }) => link.link) as [string, string];
    // Under the address the app listens on: PUBLIC_URL is unset here.
    expect(manage.startsWith(`${base}/book/${t.workspace.slug}/manage/`)).toBe(true);

    const page = await fetch(manage);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Haircut');
    expect(html).toContain('Anna');

    const file = await fetch(ical);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/calendar/);
    const event = new ICAL.Component(ICAL.parse(await file.text())).getFirstSubcomponent('vevent')!;
    expect(String(event.getFirstPropertyValue('uid'))).toBe(`${booking.uuid}@127.0.0.1`);
    const start = event.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect(start.toJSDate().toISOString()).toBe('2026-09-10T08:00:00.000Z');

    await drainWebhooks(
      new WebhookWorker({
        handlers: outboxHandlers(),
        db: t.db,
        clock,
        allowPrivate: true,
        timeoutMs: 5000,
      }),
    );
    await receiver.waitFor(1);
    const legacy = receiver.requests[0]!.json();
    expect(legacy.uid).toBe(booking.uuid);
    expect(legacy.booking_page).toBe(manage);
    expect(String(legacy.booking_page).endsWith(`/${String(legacy.booking_hash_id)}`)).toBe(true);
    const fromWebhook = await fetch(String(legacy.booking_page));
    expect(fromWebhook.status).toBe(200);
    expect(await fromWebhook.text()).toContain('Haircut');

    // A forged token, and the right token under another workspace, open nothing.
    const token = String(legacy.booking_hash_id);
    for (const url of [
      `${base}/book/${t.workspace.slug}/manage/${forge(token)}`,
      `${base}/book/${t.workspace.slug}/manage/${forge(token)}/calendar.ics`,
      `${base}/book/${(await createOtherWorkspace(t.db)).workspace.slug}/manage/${token}`,
    ]) {
      expect((await fetch(url)).status, url).toBe(404);
    }
  });

  it('are absolute under PUBLIC_URL when it is set, in every booking answer', async () => {
    const other = await buildTestApp({
      clock,
      database: t.database,
      config: { publicUrl: 'https://book.example/' },
    });
    try {
      const fixture = await bookingFixture(other);
      const created = await other.call('POST', '/bookings', {
        reserved_on: '2026-09-11T08:00:00Z',
        location_uuid: fixture.location.id,
        service_uuid: fixture.haircut.id,
        staffer_uuid: fixture.anna.id,
        customer_phone: '+4915170000022',
      });
      expect(created.statusCode, created.body).toBe(201);
      const uuid = created.json().data.uuid;
      for (const answer of [
        created.json().data,
        (await other.call('GET', `/bookings/${uuid}`)).json().data,
        (await other.call('GET', '/bookings')).json().data[0],
      ]) {
        const [manage, ical] = answer.links.map((link: { link: string }) => link.link);
        expect(manage).toMatch(
          new RegExp(`^https://book\\.example/book/${other.workspace.slug}/manage/[\\w-]{44}$`),
        );
        expect(ical).toBe(`${manage}/calendar.ics`);
        // The same path opens the page on this app (the proxy in front would forward it).
        const page = await other.app.inject({ method: 'GET', url: new URL(manage).pathname });
        expect(page.statusCode).toBe(200);
      }
    } finally {
      await other.close();
    }
  });
});
