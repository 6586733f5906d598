import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  change,
  type Json,
  openStudio,
  outboxOf,
  type Studio,
} from '../../../test/bookings/bookings-kit.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';

let s: Studio;
let staff: PanelClient;
beforeAll(async () => {
  s = await openStudio();
  staff = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
  );
});
afterAll(() => s.t.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An event body with what differs between two bookings by nature left out: ids, instants, the
 * customer's signed links, and `source` (the panel says 'panel' where the API says 'api').
 * Everything else — types, order, sequence, every field of the booking — must be equal.
 */
function shape(value: unknown, key = ''): unknown {
  if (key === 'source') return '<source>';
  if (typeof value === 'string') {
    if (UUID.test(value)) return '<uuid>';
    if (INSTANT.test(value)) return '<instant>';
    if (/^https?:\/\//.test(value)) return '<link>';
    return value;
  }
  if (Array.isArray(value)) return value.map((item) => shape(item));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v, k)]));
  return value;
}

async function eventsOf(bookingId: string) {
  return (await outboxOf(s.t, bookingId)).map((row) => ({ type: row.type, body: shape(row.payload) }));
}

describe('webhooks of panel changes', () => {
  it('are the same as those of the same changes through the API', async () => {
    const customer = {
      customer_phone: '+4915155500001',
      customer_first_name: 'Twin',
      customer_last_name: 'Booking',
      booking_comment: 'Same note',
    };
    // Two days, the same wall times: the panel's booking on one, its twin through the API on the other.
    const panelDay = s.nextDay();
    const apiDay = s.nextDay();

    await staff.get('/panel/bookings/new');
    const created = await staff.post('/panel/bookings', {
      location_uuid: s.f.location.id,
      service_uuid: [s.f.haircut.id],
      staffer_uuid: s.f.anna.id,
      date: panelDay,
      reserved_on: '10:00',
      ...customer,
    });
    expect(created.statusCode, created.body).toBe(303);
    const panelId = /bookings\/([0-9a-f-]{36})\?/.exec(created.headers.location!)![1]!;
    const page = `/panel/bookings/${panelId}`;
    await staff.get(page);
    expect((await staff.post(`${page}/move`, { date: panelDay, reserved_on: '14:00' })).statusCode).toBe(303);
    expect((await staff.post(`${page}/staffer`, { staffer_uuid: s.f.ben.id })).statusCode).toBe(303);
    expect((await staff.post(`${page}/notes`, { value: 'No event for a note' })).statusCode).toBe(303);
    expect((await staff.post(`${page}/cancel`, { cancel_reason: 'postponed' })).statusCode).toBe(303);

    const twin: Json = await book(s.t, {
      ...bookingBody(s.f, at(apiDay, '10:00')),
      ...customer,
    });
    await change(s.t, 'PUT', `/bookings/${twin.uuid}/reschedule`, { reserved_on: at(apiDay, '14:00') });
    await change(s.t, 'PUT', `/bookings/${twin.uuid}/staffer`, { staffer_uuid: s.f.ben.id });
    expect(
      (await s.t.call('POST', `/bookings/${twin.uuid}/public_notes`, { value: 'No event for a note' }))
        .statusCode,
    ).toBe(201);
    await change(s.t, 'PUT', `/bookings/${twin.uuid}/status/cancel`, { cancel_reason: 'postponed' });

    const panelEvents = await eventsOf(panelId);
    const apiEvents = await eventsOf(twin.uuid);
    expect(panelEvents.map((e) => e.type)).toEqual([
      'booking-created',
      'booking-updated',
      'booking-rescheduled',
      'booking-updated',
      'booking-canceled',
    ]);
    expect(panelEvents).toEqual(apiEvents);
    // The comparison sees the booking: the last event carries the canceled booking with Ben.
    expect(panelEvents.at(-1)!.body).toMatchObject({
      data: { booking: { is_canceled: true, cancel_reason: 'postponed', staffer: { first_name: 'Ben' } } },
    });
  });
});
