import { randomUUID } from 'node:crypto';
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
import { createLocation, createService, createStaffer } from '../../test/helpers/factories.js';

/**
 * Resources (docs/resources.md) through the API: set up per location, required by services,
 * respected by the time slots, held by bookings, and decided by the database under concurrency.
 * Each scenario has a workspace of its own (on Citus the suite's files share one database).
 */
const NOW = '2026-09-01T08:00:00Z';
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

/** A workspace of its own with one Berlin location and `staffers` staffers providing `service`. */
async function studio(options: { staffers?: number; capacity?: number; bufferAfter?: number } = {}) {
  const other = await createOtherWorkspace(t.db);
  const ws = other.workspace.id;
  const location = await createLocation(t.db, ws, { timezone: 'Europe/Berlin' });
  const service = await createService(t.db, ws, [location.id], {
    name: 'Massage',
    durationMinutes: 60,
    capacity: options.capacity ?? 1,
    bufferAfterMinutes: options.bufferAfter ?? 0,
  });
  const staffers: string[] = [];
  for (let i = 0; i < (options.staffers ?? 2); i++)
    staffers.push((await createStaffer(t.db, ws, location.id, [service.id], { firstName: `S${i}` })).id);
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await t.app.inject({
      method: method as 'GET',
      url: `${API}${path}`,
      headers: other.headers,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: response.statusCode, body: response.body === '' ? {} : response.json() };
  };
  const room = async (name: string, values: Record<string, unknown> = {}) => {
    const answer = await call('POST', '/resources', {
      location_uuid: location.id,
      type: 'room',
      name,
      ...values,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data!.uuid;
  };
  const needs = async (resources: unknown[]) => {
    const answer = await call('PATCH', `/services/${service.id}`, { resources });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as unknown as { resources: unknown[] };
  };
  const slots = async () => {
    const answer = await call(
      'GET',
      `/locations/${location.id}/time-slots?service_uuid=${service.id}&range_start=${DAY}&range_end=${DAY}`,
    );
    expect(answer.status).toBe(200);
    const days = answer.body.dates as { slots: { start: string; quantity: number }[] }[];
    return new Map(days[0]!.slots.map((slot) => [slot.start, slot.quantity]));
  };
  const book = (hhmm: string, index: number, staffer?: string) =>
    call('POST', '/bookings', {
      reserved_on: berlin(hhmm),
      location_uuid: location.id,
      service_uuid: service.id,
      ...(staffer ? { staffer_uuid: staffer } : {}),
      customer_phone: phoneNumber(index),
    });
  return { ws, headers: other.headers, location, service, staffers, call, room, needs, slots, book };
}

describe('resources of a location (API)', () => {
  it('are created, listed by location, read, changed and archived, never deleted', async () => {
    const s = await studio();
    const created = await s.call('POST', '/resources', {
      location_uuid: s.location.id,
      type: 'room',
      name: ' Room 1 ',
      capacity: 4,
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      uuid: expect.any(String),
      location_uuid: s.location.id,
      type: 'room',
      name: 'Room 1',
      capacity: 4,
    });
    const id = created.body.data!.uuid;
    await s.room('Room 2');

    const listed = await s.call('GET', `/locations/${s.location.id}/resources`);
    expect(listed.status).toBe(200);
    expect((listed.body.data as unknown as { name: string }[]).map((r) => r.name)).toEqual([
      'Room 1',
      'Room 2',
    ]);
    expect((listed.body.meta as { total: number }).total).toBe(2);

    const changed = await s.call('PATCH', `/resources/${id}`, { name: 'Blue room', capacity: 2 });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Blue room', capacity: 2, type: 'room' });

    expect((await s.call('DELETE', `/resources/${id}`)).status).toBe(204);
    expect((await s.call('GET', `/resources/${id}`)).status).toBe(404);
    const after = await s.call('GET', `/locations/${s.location.id}/resources`);
    expect((after.body.data as unknown as { name: string }[]).map((r) => r.name)).toEqual(['Room 2']);
    // Archived, the row is still there.
    const row = await t.db
      .selectFrom('resources')
      .select('archived_at')
      .where('id', '=', id)
      .executeTakeFirst();
    expect(row?.archived_at).toBeInstanceOf(Date);
  });

  it('refuses a bad type, an unknown location, and hides other workspaces', async () => {
    const s = await studio();
    const other = await studio();
    const foreign = await other.room('Theirs');
    const badType = await s.call('POST', '/resources', {
      location_uuid: s.location.id,
      type: 'Big Room',
      name: 'x',
    });
    expect(badType.status).toBe(422);
    const badLocation = await s.call('POST', '/resources', {
      location_uuid: other.location.id,
      type: 'room',
      name: 'x',
    });
    expect(badLocation.status).toBe(422);
    expect(badLocation.body.errors).toHaveProperty('location_uuid');
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Mine' }], ['DELETE']] as const) {
      const theirs = await s.call(method, `/resources/${foreign}`, body);
      const nowhere = await s.call(method, `/resources/${randomUUID()}`, body);
      expect(theirs.status).toBe(404);
      expect(theirs.body).toEqual(nowhere.body);
    }
    expect((await other.call('GET', `/resources/${foreign}`)).body.data).toMatchObject({ name: 'Theirs' });
  });
});

describe('a unit services need by name', () => {
  it('is not archived, nor changes type, until those services change', async () => {
    const s = await studio();
    const blue = await s.room('Blue room');
    await s.needs([{ type: 'room', resource_uuid: blue }]);
    const archive = await s.call('DELETE', `/resources/${blue}`);
    expect(archive.status).toBe(409);
    expect(archive.body).toMatchObject({
      code: 'resource_in_use',
      message: 'The resource is needed by name by Massage: change those services first.',
    });
    const retype = await s.call('PATCH', `/resources/${blue}`, { type: 'suite' });
    expect(retype.status).toBe(422);
    expect(retype.body.errors).toEqual({
      type: ['The type cannot change while Massage need this resource by name.'],
    });
    // A rename is fine; the slots are still offered.
    expect((await s.call('PATCH', `/resources/${blue}`, { name: 'Blue suite' })).status).toBe(200);
    expect((await s.slots()).get('10:00')).toBe(1);

    await s.needs([{ type: 'room' }]);
    expect((await s.call('DELETE', `/resources/${blue}`)).status).toBe(204);
  });
});

describe('services that need resources', () => {
  it('take N units of a type or a named unit, shown on the service; a wrong named unit is a 422', async () => {
    const s = await studio();
    const blue = await s.room('Blue');
    const chair = (
      await s.call('POST', '/resources', { location_uuid: s.location.id, type: 'chair', name: 'C1' })
    ).body.data!.uuid;
    const service = await s.needs([
      { type: 'room', resource_uuid: blue },
      { type: 'chair', units: 2 },
    ]);
    expect(service.resources).toEqual([
      { type: 'room', units: 1, resource_uuid: blue },
      { type: 'chair', units: 2, resource_uuid: null },
    ]);
    const wrongType = await s.call('PATCH', `/services/${s.service.id}`, {
      resources: [{ type: 'room', resource_uuid: chair }],
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors).toHaveProperty(['resources.0.resource_uuid']);
    const other = await studio();
    const theirs = await other.room('Theirs');
    const foreign = await s.call('PATCH', `/services/${s.service.id}`, {
      resources: [{ type: 'room', resource_uuid: theirs }],
    });
    expect(foreign.status).toBe(422);
    expect((await s.call('GET', `/services/${s.service.id}`)).body.data).toMatchObject({
      resources: service.resources,
    });
  });
});

describe('time slots and bookings with resources', () => {
  it('offer a time only while a unit is free: two staffers, one room, quantity 1', async () => {
    const s = await studio({ staffers: 2, bufferAfter: 15 });
    expect((await s.slots()).get('10:00')).toBe(2);
    await s.needs([{ type: 'room' }]);
    // No room at all: nothing is bookable, though both staffers are free.
    expect((await s.slots()).size).toBe(0);
    const room = await s.room('Room 1');
    const before = await s.slots();
    expect(before.get('10:00')).toBe(1);

    const booked = await s.book('10:00', 1);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect(booked.body.data!.resources).toEqual([{ uuid: room, type: 'room', name: 'Room 1' }]);
    const after = await s.slots();
    // The room is held 10:00-11:15 (buffer included): the other staffer cannot start there.
    // A start whose own span (with its buffer) would reach into it is out too: 09:00 ends 10:15.
    for (const hhmm of ['09:00', '09:15', '10:00', '10:45', '11:00'])
      expect(after.has(hhmm), hhmm).toBe(false);
    expect(after.get('11:15')).toBe(1);
    // The other staffer, free at 10:00, is refused: the room decides.
    const refused = await s.book('10:00', 2, s.staffers[1]);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('slot_unavailable');

    // A second room gives the second staffer a time again.
    await s.room('Room 2');
    expect((await s.slots()).get('10:00')).toBe(1);
    const second = await s.book('10:00', 3, s.staffers[1]);
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect((second.body.data!.resources as { name: string }[])[0]!.name).toBe('Room 2');

    // Cancel frees the unit; reschedule moves it.
    const id = booked.body.data!.uuid;
    const moved = await s.call('PUT', `/bookings/${id}/reschedule`, { reserved_on: berlin('14:00') });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const read = await s.call('GET', `/bookings/${id}`);
    expect(read.body.data!.resources).toEqual([{ uuid: room, type: 'room', name: 'Room 1' }]);
    expect((await s.slots()).get('10:00')).toBe(1);
    expect((await s.call('PUT', `/bookings/${id}/status/cancel`, {})).status).toBe(200);
    expect((await s.slots()).get('14:00')).toBe(2);
    const held = await t.db
      .selectFrom('resource_occupancies')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('workspace_id', '=', s.ws)
      .executeTakeFirstOrThrow();
    expect(held.n).toBe(1);
  });

  it('a named unit is the only one that serves', async () => {
    const s = await studio({ staffers: 2 });
    await s.room('Room 1');
    const blue = await s.room('Blue');
    await s.needs([{ type: 'room', resource_uuid: blue }]);
    expect((await s.slots()).get('10:00')).toBe(1);
    const booked = await s.book('10:00', 1);
    expect(booked.body.data!.resources).toEqual([{ uuid: blue, type: 'room', name: 'Blue' }]);
    expect((await s.slots()).has('10:00')).toBe(false);
  });

  it('a group class takes one room for the class, not one per seat', async () => {
    const s = await studio({ staffers: 1, capacity: 3 });
    await s.room('Small', { capacity: 2 });
    const hall = await s.room('Hall', { capacity: 10 });
    await s.needs([{ type: 'room' }]);
    // Only the hall holds the class of 3.
    expect((await s.slots()).get('10:00')).toBe(3);
    for (let i = 0; i < 3; i++) {
      const answer = await s.book('10:00', i);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.data!.resources).toEqual([{ uuid: hall, type: 'room', name: 'Hall' }]);
    }
    const rows = await t.db
      .selectFrom('resource_occupancies')
      .select(['resource_id'])
      .where('workspace_id', '=', s.ws)
      .execute();
    expect(rows).toEqual([{ resource_id: hall }]);
  });

  it('changes nothing for a service that needs no resources', async () => {
    const s = await studio({ staffers: 2 });
    await s.room('Room 1');
    expect((await s.slots()).get('10:00')).toBe(2);
    expect((await s.book('10:00', 1)).status).toBe(201);
    expect((await s.book('10:00', 2)).body.data!.resources).toEqual([]);
    expect((await s.slots()).has('10:00')).toBe(false);
  });
});

describe('PUT /bookings/{uuid}/resources', () => {
  it('moves a booking to another room, refuses a taken or foreign one, and records it', async () => {
    const s = await studio({ staffers: 2 });
    const one = await s.room('Room 1');
    const two = await s.room('Room 2');
    await s.needs([{ type: 'room' }]);
    const first = (await s.book('10:00', 1, s.staffers[0])).body.data!.uuid;
    const second = (await s.book('10:00', 2, s.staffers[1])).body.data!;
    expect((second.resources as { uuid: string }[])[0]!.uuid).toBe(two);

    // Room 2 is the other booking's at that time: the database refuses it.
    const taken = await s.call('PUT', `/bookings/${first}/resources`, { resource_uuids: [two] });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('slot_unavailable');
    const other = await studio();
    const foreign = await other.room('Theirs');
    const bad = await s.call('PUT', `/bookings/${first}/resources`, { resource_uuids: [foreign] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toHaveProperty(['resource_uuids.0']);
    expect((await other.call('PUT', `/bookings/${first}/resources`, { resource_uuids: [] })).status).toBe(
      404,
    );

    expect((await s.call('PUT', `/bookings/${second.uuid}/status/cancel`, {})).status).toBe(200);
    const moved = await s.call('PUT', `/bookings/${first}/resources`, { resource_uuids: [two] });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.data!.resources).toEqual([{ uuid: two, type: 'room', name: 'Room 2' }]);
    const history = await s.call('GET', `/bookings/${first}/history`);
    const last = (history.body.data as unknown as { action: string; changes: Record<string, unknown> }[]).at(
      -1,
    )!;
    expect(last.action).toBe('resources_changed');
    expect(last.changes.resource_uuids).toEqual({ from: [one], to: [two] });
    // The change reaches webhook receivers: a booking-updated event whose booking shows Room 2.
    // (`sequence` counts per booking: the other booking's events are left out, not ordered in.)
    const events = await t.db
      .selectFrom('outbox_events')
      .select(['type', 'payload'])
      .where('workspace_id', '=', s.ws)
      .where('booking_id', '=', first)
      .orderBy('sequence')
      .execute();
    const updated = events.at(-1)!;
    expect(updated.type).toBe('booking-updated');
    expect(JSON.stringify(updated.payload)).toContain(two);
  });
});

describe('the database decides', () => {
  it('60 concurrent creates needing the last free room make one booking', async () => {
    const crowd = 60;
    const s = await studio({ staffers: crowd });
    await s.room('Last room');
    await s.needs([{ type: 'room' }]);
    // Each request names its own staffer, so only the room can refuse.
    const answers = await Promise.all(
      s.staffers.map((staffer, i) =>
        send('POST', '/bookings', s.headers, {
          reserved_on: berlin('10:00'),
          location_uuid: s.location.id,
          service_uuid: s.service.id,
          staffer_uuid: staffer,
          customer_phone: phoneNumber(i),
        }),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 1, 409: crowd - 1 });
    expectOnlySlotConflicts(answers, 201);
    await expectSound(t.db, s.ws, 1);
    const held = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM resource_occupancies WHERE workspace_id = ${s.ws}`.execute(t.db);
    expect(held.rows[0]!.n).toBe(1);
  });
});
