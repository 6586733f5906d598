import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  change,
  type Json,
  openStudio,
  type Studio,
} from '../../test/bookings/bookings-kit.js';
import { expectSound, phoneNumber, type Send, senderFor } from '../../test/helpers/concurrency.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { outboxHandlers } from '../workers.js';
import { openWritePath } from '../write-path.js';
import { offerToken } from './offer-link.js';
import { WaitlistRound } from './waitlist-round.js';

// Group classes filled from the waitlist (auto_fill_group_seats), through the real app on the
// real store: the cancel dispatched through the outbox, the periodic round driven by the test.
let s: Studio;
const faults: unknown[] = [];
const logger = { error: (object: object) => faults.push(object) };
const quiet = { info: () => {}, warn: (o: object) => faults.push(o), error: (o: object) => faults.push(o) };

beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

const dispatch = () => dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1000, undefined, logger);
const round = () =>
  new WaitlistRound({
    db: s.t.db,
    uow: openWritePath(s.t.db).uow,
    clock: s.clock,
    logger: quiet as never,
    linkBase: 'https://kairos.test',
  }).runOnce();

async function settings(body: Record<string, unknown>): Promise<Json> {
  const response = await s.t.call('PUT', '/waitlist/settings', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function join(day: string, phone: string, more: Record<string, unknown> = {}): Promise<Json> {
  const response = await s.t.call('POST', '/waitlist', {
    location_uuid: s.f.location.id,
    service_uuid: s.f.yoga.id,
    customer_phone: phone,
    ...more,
    windows: [{ date: day, from: '09:00', to: '12:00' }],
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

async function offersOf(entryId: string): Promise<Json[]> {
  const response = await s.t.call('GET', `/waitlist/offers?entry_uuid=${entryId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function entry(id: string): Promise<Json> {
  const response = await s.t.call('GET', `/waitlist/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** The class at 10:00 of `day`, full: three seats, the first one's booking answered. */
async function fullClass(day: string, phoneBase: number): Promise<Json[]> {
  const seats: Json[] = [];
  for (let i = 0; i < 3; i += 1)
    seats.push(
      await book(
        s.t,
        bookingBody(s.f, at(day, '10:00'), {
          service_uuid: s.f.yoga.id,
          customer_phone: phoneNumber(phoneBase + i),
        }),
      ),
    );
  return seats;
}

async function liveSeats(day: string): Promise<{ id: string; source: string; phone: string }[]> {
  return (
    s.t.db
      .selectFrom('bookings as b')
      .innerJoin('booking_statuses as st', (j) =>
        j.onRef('st.workspace_id', '=', 'b.workspace_id').onRef('st.id', '=', 'b.status_id'),
      )
      .innerJoin('customers as c', (j) =>
        j.onRef('c.workspace_id', '=', 'b.workspace_id').onRef('c.id', '=', 'b.customer_id'),
      )
      .select(['b.id', 'b.source', 'c.phone'])
      .where('b.workspace_id', '=', s.t.workspace.id)
      // Only the class is booked at this time in this file.
      .where('b.start_time', '=', new Date(at(day, '10:00')))
      .where('st.type', '<>', 'canceled')
      .execute()
  );
}

describe('auto_fill_group_seats', () => {
  it('is off by default, and the settings answer it', async () => {
    const read = await s.t.call('GET', '/waitlist/settings');
    expect(read.json().data).toEqual({ offer_mode: 'one', hold_minutes: 30, auto_fill_group_seats: false });
    expect(await settings({ auto_fill_group_seats: true })).toEqual({
      offer_mode: 'one',
      hold_minutes: 30,
      auto_fill_group_seats: true,
    });
    expect(await settings({ hold_minutes: 20 })).toEqual({
      offer_mode: 'one',
      hold_minutes: 20,
      auto_fill_group_seats: true,
    });
    const bad = await s.t.call('PUT', '/waitlist/settings', { auto_fill_group_seats: 'yes' });
    expect(bad.statusCode).toBe(422);
    await settings({ hold_minutes: 30, auto_fill_group_seats: false });
  });

  it('on: a canceled seat of a group class is booked for the first in line when the round runs, once', async () => {
    await settings({ auto_fill_group_seats: true });
    const day = s.nextDay();
    const [seat] = await fullClass(day, 100);
    const first = await join(day, phoneNumber(110), { customer_email: 'first@example.test' });
    s.clock.advance(1000);
    const second = await join(day, phoneNumber(111));

    await change(s.t, 'PUT', `/bookings/${seat!.uuid}/status/cancel`, { cancel_reason: 'canceled' });
    await dispatch();
    await dispatch(); // the offer's own event
    expect(faults).toEqual([]);
    const [offer] = await offersOf(first.uuid);
    expect(offer).toMatchObject({ state: 'open', made_by: 'auto', start_time: at(day, '10:00') });
    expect(await offersOf(second.uuid)).toEqual([]);
    // No link goes out for a seat booked from the line.
    const offerMails = await s.t.db
      .selectFrom('mail_messages')
      .select('id')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('kind', '=', 'waitlist_offer')
      .execute();
    expect(offerMails).toEqual([]);
    // Nor can a link claim it: only the round books an offer it made for itself.
    const byLink = await s.t.call('POST', '/waitlist/offers/claim', {
      token: offerToken(s.t.workspace, offer.uuid),
    });
    expect(byLink.statusCode).toBe(410);
    expect((await offersOf(first.uuid))[0]).toMatchObject({ state: 'open', made_by: 'auto' });

    // The round spans every workspace of the store (a shared database holds other files' offers
    // too): what it did here is checked below, not its counts.
    s.clock.advance(5000);
    await round();
    const booked = await entry(first.uuid);
    expect(booked.state).toBe('booked');
    expect((await offersOf(first.uuid))[0]).toMatchObject({
      state: 'claimed',
      made_by: 'auto',
      booking_uuid: booked.booking_uuid,
    });
    expect((await entry(second.uuid)).state).toBe('waiting');
    const seats = await liveSeats(day);
    expect(seats).toHaveLength(3);
    expect(seats.find((x) => x.id === booked.booking_uuid)).toEqual({
      id: booked.booking_uuid,
      source: 'waitlist',
      phone: phoneNumber(110),
    });
    // Once: a second round books nothing more, the class being full again.
    await round();
    expect(await liveSeats(day)).toHaveLength(3);
    expect(await offersOf(second.uuid)).toEqual([]);
    // The normal booking emails follow from the booking's own event.
    const created = await s.t.db
      .selectFrom('outbox_events')
      .select('type')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('booking_id', '=', booked.booking_uuid)
      .execute();
    expect(created.map((e) => e.type)).toEqual(['booking-created']);
    await dispatch();
    const mails = await s.t.db
      .selectFrom('mail_messages')
      .select(['kind', 'recipient'])
      .where('workspace_id', '=', s.t.workspace.id)
      .where('booking_id', '=', booked.booking_uuid)
      .where('kind', '=', 'confirmed')
      .execute();
    expect(mails).toEqual([{ kind: 'confirmed', recipient: 'first@example.test' }]);
    await s.t.call('DELETE', `/waitlist/${second.uuid}`);
  });

  it('off: the freed seat is offered as before, and the round books nothing', async () => {
    await settings({ auto_fill_group_seats: false });
    const day = s.nextDay();
    const [seat] = await fullClass(day, 200);
    const person = await join(day, phoneNumber(210));
    await change(s.t, 'PUT', `/bookings/${seat!.uuid}/status/cancel`, { cancel_reason: 'canceled' });
    await dispatch();
    await dispatch();
    const [offer] = await offersOf(person.uuid);
    expect(offer).toMatchObject({ state: 'open', made_by: 'freed' });
    await round();
    expect((await offersOf(person.uuid)).map((o) => o.state)).toEqual(['open']);
    expect((await entry(person.uuid)).state).toBe('offered');
    expect(await liveSeats(day)).toHaveLength(2);
    await s.t.call('DELETE', `/waitlist/${person.uuid}`);
  });

  it('a direct booking of the last seat and the automatic claim at once: exactly one gets it', async () => {
    await settings({ auto_fill_group_seats: true });
    let send: Send | undefined;
    send ??= await senderFor(s.t);
    const outcomes: string[] = [];
    for (let race = 0; race < 5; race += 1) {
      const day = s.nextDay();
      const [seat] = await fullClass(day, 300 + race * 10);
      const person = await join(day, phoneNumber(305 + race * 10));
      await change(s.t, 'PUT', `/bookings/${seat!.uuid}/status/cancel`, { cancel_reason: 'canceled' });
      await dispatch();
      await dispatch();
      expect((await offersOf(person.uuid))[0]).toMatchObject({ state: 'open', made_by: 'auto' });

      const [direct, done] = await Promise.all([
        send(
          'POST',
          '/bookings',
          s.t.headers,
          bookingBody(s.f, at(day, '10:00'), {
            service_uuid: s.f.yoga.id,
            customer_phone: phoneNumber(306 + race * 10),
          }),
        ),
        round(),
      ]);
      const seats = await liveSeats(day);
      expect(seats).toHaveLength(3);
      if (direct.status === 201) {
        expect(done.booked).toBe(0);
        // The person keeps waiting; the offer is withdrawn.
        expect((await entry(person.uuid)).state).toBe('waiting');
        expect((await offersOf(person.uuid))[0].state).toBe('withdrawn');
        expect(seats.filter((x) => x.source === 'waitlist')).toEqual([]);
        outcomes.push('direct');
        await s.t.call('DELETE', `/waitlist/${person.uuid}`);
      } else {
        expect(direct.status).toBe(409);
        expect(direct.body.code).toBe('slot_unavailable');
        expect(done.booked).toBe(1);
        expect((await entry(person.uuid)).state).toBe('booked');
        expect(seats.filter((x) => x.source === 'waitlist').map((x) => x.phone)).toEqual([
          phoneNumber(305 + race * 10),
        ]);
        outcomes.push('auto');
      }
    }
    expect(outcomes).toHaveLength(5);
    expect(faults).toEqual([]);
    await expectSound(s.t.db, s.t.workspace.id, await liveCount());
  });
});

async function liveCount(): Promise<number> {
  const rows = await s.t.db
    .selectFrom('bookings as b')
    .innerJoin('booking_statuses as st', (j) =>
      j.onRef('st.workspace_id', '=', 'b.workspace_id').onRef('st.id', '=', 'b.status_id'),
    )
    .select('b.id')
    .where('b.workspace_id', '=', s.t.workspace.id)
    .where('st.type', '<>', 'canceled')
    .execute();
  return rows.length;
}
