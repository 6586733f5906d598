import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  berlinLocal,
  book,
  bookingBody,
  change,
  duration,
  eur,
  expect422,
  expectError,
  openStudio,
  plusMinutes,
  type Studio,
  statusOfType,
} from '../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../test/helpers/build-test-app.js';
import { createService, createStaffer } from '../../test/helpers/factories.js';

let s: Studio;
let carl: string;
beforeAll(async () => {
  s = await openStudio();
  // Carl provides only Color: not eligible for a Haircut booking.
  carl = (
    await createStaffer(s.t.db, s.t.workspace.id, s.f.location.id, [s.f.color.id], { firstName: 'Carl' })
  ).id;
});
afterAll(() => s.t.close());

describe('PUT /bookings/{uuid}/reschedule', () => {
  it('moves start and end, keeps the uuid and everything else', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const booking = await book(t, bookingBody(f, at(day, '10:00'), { booking_comment: 'Hi' }));
    const target = at(s.nextDay(), '15:15');
    const moved = await change(t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: target });
    expect(moved).toEqual({
      ...booking,
      start_time: target,
      start_time_local: berlinLocal(target),
      end_time: plusMinutes(target, 60),
      end_time_local: berlinLocal(plusMinutes(target, 60)),
      // The line's own times and the cut-offs move with the booking.
      ordered_services: [
        { ...booking.ordered_services[0], reserved_on: target, reserved_until: plusMinutes(target, 60) },
      ],
      policy: {
        ...booking.policy,
        cancel_until: plusMinutes(target, -1440),
        reschedule_until: plusMinutes(target, -1440),
      },
      updated_at: expect.any(String),
    });
    expect((await t.call('GET', `/bookings/${booking.uuid}`)).json().data).toEqual(moved);
    // The old time is free again.
    await book(t, bookingBody(f, at(day, '10:00'), { customer_phone: '+4915100000001' }));
  });

  it('accepts a move overlapping its own old time (12:00 -> 12:30 for 60 minutes)', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '12:00')));
    const moved = await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, {
      reserved_on: at(day, '12:30'),
    });
    expect(moved.uuid).toBe(booking.uuid);
    expect(moved.start_time).toBe(at(day, '12:30'));
    expect(moved.end_time).toBe(at(day, '13:30'));
  });

  it('converts a reserved_on with offset to UTC', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '12:00')));
    const moved = await change(s.t, 'PUT', `/bookings/${booking.uuid}/reschedule`, {
      reserved_on: `${day}T16:00:00+02:00`,
    });
    expect(moved.start_time).toBe(`${day}T14:00:00Z`);
  });

  it("refuses the staffer's taken time and unbookable starts with 409, a bad value with 422", async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const booking = await book(t, bookingBody(f, at(day, '10:00')));
    await book(t, bookingBody(f, at(day, '14:00'), { customer_phone: '+4915100000002' }));
    const path = `/bookings/${booking.uuid}/reschedule`;
    for (const hhmm of ['14:00', '13:30', '14:45', '07:00', '16:30']) {
      expectError(await t.call('PUT', path, { reserved_on: at(day, hhmm) }), 409, 'slot_unavailable');
    }
    // A start with seconds (10:05:30 in Berlin) is not a whole minute.
    expectError(await t.call('PUT', path, { reserved_on: `${day}T08:05:30Z` }), 409, 'slot_unavailable');
    expectError(
      await t.call('PUT', path, { reserved_on: at('2026-09-01', '10:30') }),
      409,
      'slot_unavailable',
    );
    expect422(await t.call('PUT', path, { reserved_on: 'next week' }), ['reserved_on']);
    expect422(await t.call('PUT', path, { reserved_on: 12 }), ['reserved_on']);
    expect422(await t.call('PUT', path, {}), ['reserved_on']);
    expect((await t.call('GET', `/bookings/${booking.uuid}`)).json().data.start_time).toBe(at(day, '10:00'));
  });
});

describe('PUT /bookings/{uuid}/status', () => {
  it('sets a confirmed or a custom status of the workspace', async () => {
    const { t, f } = s;
    const booking = await book(t, bookingBody(f, at(s.nextDay(), '10:00')));
    const confirmed = await statusOfType(t, 'confirmed');
    const first = await change(t, 'PUT', `/bookings/${booking.uuid}/status`, { status_uuid: confirmed.uuid });
    expect(first.status).toEqual({ uuid: confirmed.uuid, name: confirmed.name, type: 'confirmed' });
    expect(first.is_completed).toBe(false);
    const created = await t.call('POST', '/bookings/statuses', { name: 'Arrived early' });
    expect(created.statusCode).toBe(201);
    const custom = created.json().data;
    const second = await change(t, 'PUT', `/bookings/${booking.uuid}/status`, { status_uuid: custom.uuid });
    expect(second.status).toEqual({ uuid: custom.uuid, name: 'Arrived early', type: 'custom' });
    expect((await t.call('GET', `/bookings/${booking.uuid}`)).json().data.status).toEqual(second.status);
  });

  it("refuses a final, unknown, malformed or another workspace's status with 422 status_uuid", async () => {
    const { t, f } = s;
    const booking = await book(t, bookingBody(f, at(s.nextDay(), '10:00')));
    const path = `/bookings/${booking.uuid}/status`;
    const other = await createOtherWorkspace(t.db);
    const theirs = await t.db
      .selectFrom('booking_statuses')
      .select('id')
      .where('workspace_id', '=', other.workspace.id)
      .where('type', '=', 'confirmed')
      .executeTakeFirstOrThrow();
    const bad = [
      (await statusOfType(t, 'completed')).uuid,
      (await statusOfType(t, 'canceled')).uuid,
      randomUUID(),
      theirs.id,
      'not-a-uuid',
    ];
    for (const statusUuid of bad) {
      expect422(await t.call('PUT', path, { status_uuid: statusUuid }), ['status_uuid']);
    }
    expect422(await t.call('PUT', path, {}), ['status_uuid']);
    expect((await t.call('GET', `/bookings/${booking.uuid}`)).json().data.status.type).toBe('new');
  });
});

describe('public notes', () => {
  it('POST answers 201 with the note; public_notes joins comment and notes; GET lists them', async () => {
    const { t, f } = s;
    const booking = await book(t, bookingBody(f, at(s.nextDay(), '10:00'), { booking_comment: 'Allergic' }));
    const path = `/bookings/${booking.uuid}/public_notes`;
    const notes = [];
    for (const value of ['Parking at the back', 'Bring the voucher']) {
      const response = await t.call('POST', path, { value });
      expect(response.statusCode, response.body).toBe(201);
      const note = response.json().data;
      expect(note).toEqual({ uuid: expect.any(String), value, created_at: expect.any(String) });
      notes.push(note);
    }
    const read = (await t.call('GET', `/bookings/${booking.uuid}`)).json().data;
    expect(read.public_notes).toBe('Allergic\nParking at the back\nBring the voucher');
    expect(read.booking_comment).toBe('Allergic');
    const listed = await t.call('GET', path);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({ data: notes });
  });

  it('without a comment public_notes is the notes alone; an empty note is 422', async () => {
    const { t, f } = s;
    const booking = await book(t, bookingBody(f, at(s.nextDay(), '10:00')));
    const path = `/bookings/${booking.uuid}/public_notes`;
    expect((await t.call('POST', path, { value: 'Only note' })).statusCode).toBe(201);
    expect((await t.call('GET', `/bookings/${booking.uuid}`)).json().data.public_notes).toBe('Only note');
    for (const body of [{ value: '' }, { value: '   ' }, {}, { value: { text: 'x' } }]) {
      expect422(await t.call('POST', path, body), ['value']);
    }
    expect((await t.call('GET', path)).json().data.map((n: { value: string }) => n.value)).toEqual([
      'Only note',
    ]);
  });
});

describe('PUT /bookings/{uuid}/staffer', () => {
  it('moves the booking to a free staffer', async () => {
    const { t, f } = s;
    const booking = await book(t, bookingBody(f, at(s.nextDay(), '10:00')));
    const moved = await change(t, 'PUT', `/bookings/${booking.uuid}/staffer`, { staffer_uuid: f.ben.id });
    expect(moved.staffer).toEqual({ uuid: f.ben.id, first_name: 'Ben', last_name: 'Stylist' });
    expect(moved.start_time).toBe(booking.start_time);
    // Anna's time is free again, Ben's is taken.
    await book(t, bookingBody(f, booking.start_time, { customer_phone: '+4915100000003' }));
    const ben = await t.call(
      'POST',
      '/bookings',
      bookingBody(f, booking.start_time, { staffer_uuid: f.ben.id }),
    );
    expectError(ben, 409, 'slot_unavailable');
  });

  it('refuses a busy staffer (409) and one who does not provide the service (422)', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const booking = await book(t, bookingBody(f, at(day, '10:00')));
    await book(t, bookingBody(f, at(day, '10:30'), { staffer_uuid: f.ben.id }));
    const path = `/bookings/${booking.uuid}/staffer`;
    expectError(await t.call('PUT', path, { staffer_uuid: f.ben.id }), 409, 'slot_unavailable');
    expect422(await t.call('PUT', path, { staffer_uuid: carl }), ['staffer_uuid']);
    expect422(await t.call('PUT', path, { staffer_uuid: randomUUID() }), ['staffer_uuid']);
    expect422(await t.call('PUT', path, { staffer_uuid: 'anna' }), ['staffer_uuid']);
    expect422(await t.call('PUT', path, {}), ['staffer_uuid']);
    expect((await t.call('GET', `/bookings/${booking.uuid}`)).json().data.staffer.uuid).toBe(f.anna.id);
  });
});

describe('PUT /bookings/{uuid}/services', () => {
  it('rebuilds the order lines; duration and totals are their sums', async () => {
    const { t, f } = s;
    const booking = await book(t, bookingBody(f, at(s.nextDay(), '10:00')));
    const changed = await change(t, 'PUT', `/bookings/${booking.uuid}/services`, {
      service_uuids: [f.haircut.id, f.color.id],
    });
    expect(changed.uuid).toBe(booking.uuid);
    expect(changed.ordered_services).toEqual([
      expect.objectContaining({
        service_uuid: f.haircut.id,
        name: 'Haircut',
        price: 9000,
        duration: duration(60),
      }),
      expect.objectContaining({
        service_uuid: f.color.id,
        name: 'Color',
        price: 5000,
        duration: duration(30),
      }),
    ]);
    expect(changed.duration).toEqual(duration(90));
    expect(changed.end_time).toBe(plusMinutes(booking.start_time, 90));
    expect(changed.order).toMatchObject({
      uuid: booking.order.uuid,
      subtotal: 14000,
      subtotal_formatted: eur(14000),
      total: 14000,
      total_formatted: eur(14000),
    });
    const back = await change(t, 'PUT', `/bookings/${booking.uuid}/services`, {
      service_uuids: [f.color.id],
    });
    expect(back.ordered_services.map((l: { name: string }) => l.name)).toEqual(['Color']);
    expect(back.duration).toEqual(duration(30));
    expect(back.order.total).toBe(5000);
    // The shortened span frees 10:30 for Anna.
    await book(t, bookingBody(f, plusMinutes(booking.start_time, 30), { customer_phone: '+4915100000004' }));
  });

  it('refuses a span that now collides (409) and services not offered here (422)', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const booking = await book(t, bookingBody(f, at(day, '10:00')));
    await book(t, bookingBody(f, at(day, '11:00'), { customer_phone: '+4915100000005' }));
    const path = `/bookings/${booking.uuid}/services`;
    expectError(
      await t.call('PUT', path, { service_uuids: [f.haircut.id, f.color.id] }),
      409,
      'slot_unavailable',
    );
    const other = await createOtherWorkspace(t.db);
    const theirs = await createService(t.db, other.workspace.id, []);
    const unoffered = await createService(t.db, t.workspace.id, []);
    expect422(await t.call('PUT', path, { service_uuids: [f.color.id, theirs.id] }), ['service_uuids.1']);
    expect422(await t.call('PUT', path, { service_uuids: [unoffered.id] }), ['service_uuids.0']);
    // Offered here, but Anna does not provide it: the services are what the request got wrong.
    const massage = await createService(t.db, t.workspace.id, [f.location.id], { name: 'Massage' });
    await createStaffer(t.db, t.workspace.id, f.location.id, [massage.id], { firstName: 'Dora' });
    expect422(await t.call('PUT', path, { service_uuids: [massage.id] }), ['service_uuids']);
    expect422(await t.call('PUT', path, { service_uuids: [] }), ['service_uuids']);
    expect422(await t.call('PUT', path, { service_uuids: 'haircut' }), ['service_uuids']);
    expect422(await t.call('PUT', path, {}), ['service_uuids']);
    const read = (await t.call('GET', `/bookings/${booking.uuid}`)).json().data;
    expect(read.ordered_services).toEqual(booking.ordered_services);
    expect(read.end_time).toBe(booking.end_time);
  });
});
