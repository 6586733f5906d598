import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import {
  type Answer,
  expectOnlySlotConflicts,
  expectSound,
  phoneNumber,
  type Send,
  senderFor,
  statusCounts,
} from '../../test/helpers/concurrency.js';
import { createLocation, createStaffer } from '../../test/helpers/factories.js';
import { buildReport, REPORT_KINDS } from '../reports/reports.service.js';

/**
 * Rentals (docs/resources.md "Rentals"): a service that needs a resource and no staffer — a
 * tennis court booked by itself — through the API: the service's field and its rules, the time
 * slots in the location's opening hours, bookings without a staffer and their changes, and the
 * database deciding under concurrency. Each scenario has a workspace of its own.
 */
const NOW = '2026-09-01T08:00:00Z';
// A Thursday.
const DAY = '2026-09-10';
/** The UTC instant of a Berlin wall time on 2026-09-10 (summer time, UTC+2), by hand. */
const berlin = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return new Date(Date.UTC(2026, 8, 10, h - 2, m)).toISOString().replace('.000Z', 'Z');
};

let t: TestApp;
let send: Send;

beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock(NOW) });
  send = await senderFor(t);
});
afterAll(() => t?.close());

/** A club of its own: one Berlin location open Thursdays 09:00–12:00, `courts` courts, no staffer. */
async function club(courts = 2) {
  const other = await createOtherWorkspace(t.db);
  const ws = other.workspace.id;
  // The strictest staffer setting: a rental must still be bookable without one.
  await sql`UPDATE workspaces SET staffer_selection = 'required', slot_step_minutes = 60 WHERE id = ${ws}`.execute(
    t.db,
  );
  const location = await createLocation(t.db, ws, { timezone: 'Europe/Berlin' });
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await t.app.inject({
      method: method as 'GET',
      url: `${API}${path}`,
      headers: other.headers,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: response.statusCode, body: response.body === '' ? {} : response.json() };
  };
  const opened = await call('PATCH', `/locations/${location.id}`, {
    opening_hours: { thu: [{ from: '09:00', to: '12:00' }] },
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  const courtIds: string[] = [];
  for (let i = 1; i <= courts; i++) {
    const answer = await call('POST', '/resources', {
      location_uuid: location.id,
      type: 'court',
      name: `Court ${i}`,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    courtIds.push(answer.body.data!.uuid as string);
  }
  const created = await call('POST', '/services', {
    name: 'Tennis court, 1 hour',
    duration_minutes: 60,
    location_uuids: [location.id],
    staffer_needed: false,
    resources: [{ type: 'court' }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const service = created.body.data as { uuid: string; staffer_needed: boolean };
  // Cast so the tests read bookings' fields without a schema type.
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field below.
  type Any = any;
  const slots = async () => {
    const answer = await call(
      'GET',
      `/locations/${location.id}/time-slots?service_uuid=${service.uuid}&range_start=${DAY}&range_end=${DAY}`,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const days = answer.body.dates as { slots: { start: string; quantity: number }[] }[];
    return Object.fromEntries(days[0]!.slots.map((slot) => [slot.start, slot.quantity]));
  };
  const book = (hhmm: string, index: number, extra: Record<string, unknown> = {}) =>
    call('POST', '/bookings', {
      reserved_on: berlin(hhmm),
      location_uuid: location.id,
      service_uuid: service.uuid,
      customer_phone: phoneNumber(index),
      ...extra,
    }) as Promise<{ status: number; body: Any }>;
  return { ws, headers: other.headers, location, courts: courtIds, service, call, slots, book };
}

describe('a service that needs no staffer', () => {
  it('is marked by staffer_needed, which needs a resource and one place', async () => {
    const c = await club();
    expect(c.service.staffer_needed).toBe(false);
    const base = { name: 'Sauna', duration_minutes: 60, location_uuids: [c.location.id] };
    const plain = await c.call('POST', '/services', base);
    expect(plain.status).toBe(201);
    // Existing and new services need a staffer unless told.
    expect(plain.body.data!.staffer_needed).toBe(true);

    const bare = await c.call('POST', '/services', { ...base, staffer_needed: false });
    expect(bare.status).toBe(422);
    expect(bare.body.code).toBe('validation_failed');
    expect(Object.keys(bare.body.errors as object)).toEqual(['staffer_needed']);

    const group = await c.call('POST', '/services', {
      ...base,
      staffer_needed: false,
      capacity: 4,
      resources: [{ type: 'court' }],
    });
    expect(group.status).toBe(422);
    expect(Object.keys(group.body.errors as object)).toEqual(['capacity']);

    // Turning the staffer off on a service needing nothing names staffer_needed...
    const off = await c.call('PATCH', `/services/${plain.body.data!.uuid}`, { staffer_needed: false });
    expect(off.status).toBe(422);
    expect(Object.keys(off.body.errors as object)).toEqual(['staffer_needed']);
    // ...removing the last need of a rental names resources.
    const emptied = await c.call('PATCH', `/services/${c.service.uuid}`, { resources: [] });
    expect(emptied.status).toBe(422);
    expect(Object.keys(emptied.body.errors as object)).toEqual(['resources']);

    const read = await c.call('GET', `/services/${c.service.uuid}`);
    expect(read.body.data).toMatchObject({
      staffer_needed: false,
      resources: [{ type: 'court', units: 1, resource_uuid: null }],
    });
  });
});

describe('the time slots of a rental', () => {
  it('are the opening hours where courts are free, with no staffer at all', async () => {
    const c = await club(2);
    expect(await c.slots()).toEqual({ '09:00': 2, '10:00': 2, '11:00': 2 });
    expect((await c.book('10:00', 1)).status).toBe(201);
    expect(await c.slots()).toEqual({ '09:00': 2, '10:00': 1, '11:00': 2 });
    expect((await c.book('10:00', 2)).status).toBe(201);
    expect(await c.slots()).toEqual({ '09:00': 2, '11:00': 2 });
    // Outside the opening hours and on a taken court: refused as any taken time.
    const closed = await c.book('12:00', 3);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('slot_unavailable');
    expect((await c.book('10:00', 4)).status).toBe(409);
  });

  it('refuses a staffer: on the time slots and on a booking, 422 on staffer_uuid', async () => {
    const c = await club(1);
    const staffer = await createStaffer(t.db, c.ws, c.location.id, [], { firstName: 'Coach' });
    const asked = await c.call(
      'GET',
      `/locations/${c.location.id}/time-slots?service_uuid=${c.service.uuid}&staffer_uuid=${staffer.id}&range_start=${DAY}&range_end=${DAY}`,
    );
    expect(asked.status).toBe(422);
    expect(Object.keys(asked.body.errors as object)).toEqual(['staffer_uuid']);
    const booked = await c.book('10:00', 1, { staffer_uuid: staffer.id });
    expect(booked.status).toBe(422);
    expect(Object.keys(booked.body.errors as object)).toEqual(['staffer_uuid']);
  });
});

describe('a rental booking', () => {
  it('has no staffer, holds its court, and is changed, moved and canceled like any booking', async () => {
    const c = await club(2);
    const created = await c.book('10:00', 1);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const booking = created.body.data;
    expect(booking.staffer).toBeNull();
    expect(booking.resources).toEqual([{ uuid: c.courts[0], type: 'court', name: 'Court 1' }]);
    const row = await sql<{ staffer_id: string | null; occupancy_staffer: string | null }>`
      SELECT b.staffer_id, o.staffer_id AS occupancy_staffer FROM bookings b
      JOIN occupancies o ON o.workspace_id = b.workspace_id AND o.id = b.occupancy_id
      WHERE b.workspace_id = ${c.ws} AND b.id = ${booking.uuid}`.execute(t.db);
    expect(row.rows).toEqual([{ staffer_id: null, occupancy_staffer: null }]);

    const read = await c.call('GET', `/bookings/${booking.uuid}`);
    expect(read.status).toBe(200);
    expect(read.body.data!.staffer).toBeNull();

    const moved = await c.call('PUT', `/bookings/${booking.uuid}/reschedule`, {
      reserved_on: berlin('11:00'),
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data).toMatchObject({ start_time: berlin('11:00'), staffer: null });
    expect(await c.slots()).toEqual({ '09:00': 2, '10:00': 2, '11:00': 1 });

    const other = await c.call('PUT', `/bookings/${booking.uuid}/resources`, {
      resource_uuids: [c.courts[1]],
    });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(
      (other.body.data as unknown as { resources: { uuid: string }[] }).resources.map((u) => u.uuid),
    ).toEqual([c.courts[1]]);

    const staffer = await createStaffer(t.db, c.ws, c.location.id, [c.service.uuid], { firstName: 'Coach' });
    const withStaffer = await c.call('PUT', `/bookings/${booking.uuid}/staffer`, {
      staffer_uuid: staffer.id,
    });
    expect(withStaffer.status).toBe(422);
    expect(Object.keys(withStaffer.body.errors as object)).toEqual(['staffer_uuid']);
    expect((withStaffer.body.errors as Record<string, string[]>).staffer_uuid![0]).toContain('rental');

    const canceled = await c.call('PUT', `/bookings/${booking.uuid}/status/cancel`, {
      cancel_reason: 'canceled',
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body.data!.resources).toEqual([]);
    expect(await c.slots()).toEqual({ '09:00': 2, '10:00': 2, '11:00': 2 });
    await expectSound(t.db, c.ws, 0);

    // Its events carry no staffer, in the body every receiver gets.
    const events = await t.db
      .selectFrom('outbox_events')
      .select(['type', 'payload'])
      .where('workspace_id', '=', c.ws)
      .where('booking_id', '=', booking.uuid)
      .orderBy('sequence')
      .execute();
    expect(events.map((e) => e.type)).toEqual([
      'booking-created',
      'booking-updated',
      'booking-rescheduled',
      'booking-updated',
      'booking-canceled',
    ]);
    for (const event of events)
      expect((event.payload as { data: { booking: { staffer: unknown } } }).data.booking.staffer).toBeNull();
  });

  it('is not taken by the waitlist', async () => {
    const c = await club(1);
    const joined = await c.call('POST', '/waitlist', {
      location_uuid: c.location.id,
      service_uuid: c.service.uuid,
      customer_phone: phoneNumber(1),
      any_time: true,
    });
    expect(joined.status).toBe(422);
    expect(Object.keys(joined.body.errors as object)).toEqual(['service_uuid']);
  });
});

describe('the reports and a rental', () => {
  it('count its booking and give no one its time: every report builds over the day sums', async () => {
    const c = await club(1);
    const created = await c.book('10:00', 1);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // Bookings are made on the store's own day (created_at), which the period spans too.
    const period = {
      from: '2026-09-01',
      to: '2027-12-31',
      grouping: 'month' as const,
      locationId: undefined,
    };
    const reports = [];
    // The day sums are rolled up on the first read: a rental's booking, with no staffer, is in
    // them without a staffer's key.
    for (const kind of REPORT_KINDS) reports.push(await buildReport(t.db, c.ws, kind, period));
    const sources = reports.find((report) => report.kind === 'sources')!;
    expect(sources.tables[0]!.total).toEqual([1, 0, 0]);
    const utilisation = reports.find((report) => report.kind === 'utilisation')!;
    for (const table of utilisation.tables) expect(table.rows).toEqual([]);
  });
});

describe('the database decides a rental', () => {
  it('60 concurrent creates of a rental needing the last free court make one booking', async () => {
    const crowd = 60;
    const c = await club(1);
    const answers = await Promise.all(
      Array.from({ length: crowd }, (_, i) =>
        send('POST', '/bookings', c.headers, {
          reserved_on: berlin('10:00'),
          location_uuid: c.location.id,
          service_uuid: c.service.uuid,
          customer_phone: phoneNumber(i),
        }),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 1, 409: crowd - 1 });
    expectOnlySlotConflicts(answers, 201);
    await expectSound(t.db, c.ws, 1);
    const held = await sql<{ n: number; sessions: number }>`
      SELECT count(*)::int AS n, count(DISTINCT occupancy_id)::int AS sessions
      FROM resource_occupancies WHERE workspace_id = ${c.ws}`.execute(t.db);
    expect(held.rows[0]).toEqual({ n: 1, sessions: 1 });
  });
});
