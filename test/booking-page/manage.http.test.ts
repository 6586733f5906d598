import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { links, linkTo, location, NOW, openPageStudio, type PageStudio } from './booking-page-kit.js';

/** The manage link: signed, .ics, cancel and reschedule until the cut-off. */
let s: PageStudio;
let n = 0;
beforeAll(async () => {
  s = await openPageStudio();
});
afterAll(async () => {
  await s?.t.close();
});

/** Books Anna's haircut at `at` through the page's own form post; answers the manage path. */
async function book(at: string): Promise<{ manage: string; uuid: string }> {
  n += 1;
  const response = await s.post(`/book/${s.slug}/book`, {
    service: s.f.haircut.id,
    staffer: s.f.anna.id,
    at,
    lang: 'en',
    idempotency_key: `manage-test-key-${n}-${'x'.repeat(20)}`,
    customer_phone: `+49151000100${String(n).padStart(2, '0')}`,
    altcha: '',
  });
  expect(response.statusCode).toBe(303);
  const manage = location(response).split('?')[0]!;
  const { data } = await (
    await s.t.call('GET', `/bookings?reserved_on_from=${at}&reserved_on_to=${at}`)
  ).json();
  return { manage, uuid: data[0].uuid };
}

async function events(uuid: string) {
  const rows = await s.t.db
    .selectFrom('outbox_events')
    .select('type')
    .where('workspace_id', '=', s.t.workspace.id)
    .where('booking_id', '=', uuid)
    .orderBy('sequence')
    .execute();
  return rows.map((r) => r.type);
}

describe('the manage link', () => {
  it('speaks the language asked for, and its language form comes back to the manage page', async () => {
    const { manage } = await book('2026-09-10T09:00:00Z');
    const page = (await s.get(`${manage}?lang=ar`)).body;
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain('<h1>حجزك</h1>');
    expect(page).toContain(`<form class="lang" method="get" action="${manage}">`);
    const polish = await s.get(`${manage}?lang=pl`);
    expect(polish.body).toContain('<h1>Twoja rezerwacja</h1>');
  });

  it('shows the booking and a valid RFC 5545 file with a stable UID at the booked instant', async () => {
    const { manage, uuid } = await book('2026-09-10T07:00:00Z');
    const page = await s.get(`${manage}?lang=en`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Thursday, September 10, 2026 at 9:00 AM');
    expect(page.body).not.toContain(uuid); // no id in the page a third party could reuse
    const ics = await s.get(`${manage}/calendar.ics`);
    expect(ics.statusCode).toBe(200);
    expect(ics.headers['content-type']).toMatch(/^text\/calendar/);
    const lines = ics.body.split('\r\n');
    expect(lines[0]).toBe('BEGIN:VCALENDAR');
    expect(lines).toContain('VERSION:2.0');
    expect(lines).toContain('DTSTART:20260910T070000Z');
    expect(lines).toContain('DTEND:20260910T080000Z');
    // The host of the app's link base (HOST without PUBLIC_URL), not the Host header of the request.
    expect(lines.find((l) => l.startsWith('UID:'))).toBe(`UID:${uuid}@127.0.0.1`);
    // Content lines fold at 75 octets (RFC 5545 §3.1).
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(ics.body.endsWith('END:VCALENDAR\r\n')).toBe(true);
  });

  it('names the address, phone (tel: link) and a map link on the confirmation and manage pages', async () => {
    const { manage } = await book('2026-09-09T07:00:00Z');
    await s.t.db
      .updateTable('locations')
      .set({
        address_1: 'Torstraße 125',
        city: 'Berlin',
        postal_code: '10119',
        country_iso: 'DE',
        phone: '+493012345678',
        lat: 52.5296,
        lng: 13.4017,
      })
      .where('id', '=', s.f.location.id)
      .execute();
    for (const url of [`${manage}?lang=en&booked=1`, `${manage}?lang=en`]) {
      const page = await s.get(url);
      expect(page.body).toContain('Torstraße 125');
      expect(page.body).toContain('10119 Berlin');
      expect(page.body).toContain('href="tel:+493012345678"');
      expect(links(page.body)).toContain(
        'https://www.openstreetmap.org/?mlat=52.5296&mlon=13.4017#map=17/52.5296/13.4017',
      );
      // A plain link: no map script or frame from another origin on the page.
      expect(page.body).not.toMatch(/<(script|iframe)[^>]*src="https?:/);
    }
    // Without coordinates the map link searches the address.
    await s.t.db
      .updateTable('locations')
      .set({ lat: null, lng: null })
      .where('id', '=', s.f.location.id)
      .execute();
    expect(links((await s.get(`${manage}?lang=en`)).body)).toContain(
      'https://www.openstreetmap.org/search?query=Torstra%C3%9Fe%20125%2C%2010119%20Berlin%2C%20DE',
    );
  });

  it('answers 404 for a forged, truncated or foreign token', async () => {
    const { manage } = await book('2026-09-11T07:00:00Z');
    const token = manage.split('/').pop()!;
    // Every other last character: the 4 unused bits of base64url's last character included.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const forged = [...alphabet].filter((c) => c !== token[43]).map((c) => token.slice(0, 43) + c);
    const otherBooking = token.slice(0, 21) + (token[21] === 'A' ? 'Q' : 'A') + token.slice(22);
    for (const bad of [...forged, otherBooking, token.slice(0, 30), 'x', `${token}x`]) {
      const response = await s.get(`/book/${s.slug}/manage/${bad}`);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    }
    // Another workspace's slug with this token: its key does not sign it.
    const { createOtherWorkspace } = await import('../helpers/build-test-app.js');
    const other = await createOtherWorkspace(s.t.db);
    expect((await s.get(`/book/${other.workspace.slug}/manage/${token}`)).statusCode).toBe(404);
  });

  it('cancels with reason "canceled" and the same webhook as the API', async () => {
    const { manage, uuid } = await book('2026-09-12T07:00:00Z');
    // The manage page only links to a confirmation step (a GET: nothing is canceled yet),
    // styled as the one destructive action among the buttons.
    const page = (await s.get(`${manage}?lang=en`)).body;
    expect(page).toMatch(/<a class="button danger-outline" href="[^"]*\/cancel[^"]*">Cancel booking<\/a>/);
    expect(page).not.toContain('Yes, cancel this booking');
    const confirm = await s.get(`${manage}/cancel`);
    expect(confirm.body).toContain('Cancel this booking?');
    expect(confirm.body).toMatch(/<button type="submit" class="danger">Yes, cancel this booking<\/button>/);
    expect(linkTo(confirm.body, 'No, keep my booking')).toBe(manage);
    const { data: still } = await (await s.t.call('GET', `/bookings/${uuid}`)).json();
    expect(still.status.type).toBe('new');
    const done = await s.post(`${manage}/cancel`, {});
    expect(done.statusCode).toBe(303);
    const { data } = await (await s.t.call('GET', `/bookings/${uuid}`)).json();
    expect(data.status.type).toBe('canceled');
    expect(data.cancel_reason).toBe('canceled');
    expect(await events(uuid)).toEqual(['booking-created', 'booking-canceled']);
    expect((await s.get(location(done))).body).toContain('Your booking was canceled.');
  });

  it('reschedules to a free slot (same uuid, booking-updated + booking-rescheduled)', async () => {
    const { manage, uuid } = await book('2026-09-13T07:00:00Z');
    const picker = await s.get(`${manage}/reschedule?date=2026-09-14`);
    expect(picker.statusCode).toBe(200);
    const done = await s.post(`${manage}/reschedule`, { reserved_on: '2026-09-14T12:00:00Z' });
    expect(done.statusCode).toBe(303);
    const { data } = await (await s.t.call('GET', `/bookings/${uuid}`)).json();
    expect(data.start_time).toBe('2026-09-14T12:00:00Z');
    expect(await events(uuid)).toEqual(['booking-created', 'booking-updated', 'booking-rescheduled']);
  });

  it('opens the reschedule on the booked week and day, showing the booked time', async () => {
    const { manage } = await book('2026-10-20T07:00:00Z');
    const picker = await s.get(`${manage}/reschedule?lang=en`);
    expect(picker.statusCode).toBe(200);
    expect(picker.body).toContain('<h2>Tuesday, October 20, 2026</h2>');
    expect(picker.body).toContain(
      'Booked now: <strong>Tuesday, October 20, 2026 at 9:00 AM (GMT+2)</strong>',
    );
    // Among the day's times, the booked one is marked, not offered.
    expect(picker.body).toContain('<span class="current-slot">9:00 AM<small>your booking</small></span>');
    expect(picker.body).not.toContain('aria-label="9:00 AM, Tuesday, October 20, 2026"');
    expect(picker.body).toContain('aria-label="10:00 AM, Tuesday, October 20, 2026"');
  });

  it('refuses cancel and reschedule past the cut-off with a clear message', async () => {
    const { manage, uuid } = await book('2026-09-15T07:00:00Z');
    await s.t.call('PATCH', '/workspace', { manage_cutoff_minutes: 48 * 60 });
    // 47 hours before the start: inside the 48-hour cut-off.
    s.clock.set('2026-09-13T08:00:00Z');
    try {
      const cancel = await s.post(`${manage}/cancel`, {});
      expect(cancel.statusCode).toBe(409);
      expect(cancel.body).toContain('Changes through this page are possible until');
      const move = await s.post(`${manage}/reschedule`, { reserved_on: '2026-09-16T07:00:00Z' });
      expect(move.statusCode).toBe(409);
      const { data } = await (await s.t.call('GET', `/bookings/${uuid}`)).json();
      expect(data.status.type).toBe('new');
      expect(data.start_time).toBe('2026-09-15T07:00:00Z');
      expect(await events(uuid)).toEqual(['booking-created']);
    } finally {
      s.clock.set(NOW);
      await s.t.call('PATCH', '/workspace', { manage_cutoff_minutes: 24 * 60 });
    }
  });
});
