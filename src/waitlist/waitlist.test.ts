import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  change,
  type Json,
  openStudio,
  plusMinutes,
  type Studio,
} from '../../test/bookings/bookings-kit.js';
import { expectSound, phoneNumber, type Send, senderFor } from '../../test/helpers/concurrency.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { outboxHandlers } from '../workers.js';
import { openWritePath } from '../write-path.js';
import { offerToken } from './offer-link.js';
import { WaitlistRound } from './waitlist-round.js';

// The waitlist through the real app on the real store (PGlite, or PostgreSQL with
// TEST_DATABASE_URL): joins over the API, a cancel dispatched through the outbox, the expiry
// round driven by the test clock, claims through the normal create, concurrent claims.
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
  }).runOnce();

async function join(body: Record<string, unknown>): Promise<Json> {
  const response = await s.t.call('POST', '/waitlist', {
    location_uuid: s.f.location.id,
    service_uuid: s.f.haircut.id,
    ...body,
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

/** One sender for the file: on PostgreSQL the app listens once, and requests truly overlap. */
let sending: Promise<Send> | undefined;
const sender = () => {
  sending ??= senderFor(s.t);
  return sending;
};

const tokenOf = (offerId: string) => offerToken(s.t.workspace, offerId);

/** Events of the waitlist offers in the outbox, as [type, offer uuid, state]. */
async function offerEvents(): Promise<[string, string, string][]> {
  const rows = await s.t.db
    .selectFrom('outbox_events')
    .select(['type', 'payload'])
    .where('workspace_id', '=', s.t.workspace.id)
    .where('type', 'like', 'waitlist-%')
    // Each event was written by its own transaction, one after the other.
    .orderBy('created_at')
    .execute();
  return rows.map((row) => {
    const offer = (row.payload as Json).data.waitlist_offer;
    return [row.type, offer.uuid, offer.state];
  });
}

describe('joining', () => {
  it('answers the entry, in line, with the customer found or made by phone', async () => {
    const day = s.nextDay();
    const joined = await join({
      customer_phone: '+4915100000001',
      customer_first_name: 'Alma',
      windows: [{ date: day, from: '10:00', to: '12:00' }],
    });
    expect(joined).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      staffer_uuid: null,
      customer: {
        uuid: expect.any(String),
        phone: '+4915100000001',
        first_name: 'Alma',
        last_name: '',
        email: '',
      },
      windows: [{ date: day, from: '10:00', to: '12:00' }],
      any_time: false,
      state: 'waiting',
      source: 'api',
      booking_uuid: null,
      joined_at: '2026-09-01T08:00:00Z',
    });
    const left = await s.t.call('DELETE', `/waitlist/${joined.uuid}`);
    expect(left.statusCode).toBe(200);
    expect(left.json().data.state).toBe('left');
  });

  it('refuses no wanted time, a bad window, a bad phone, a staffer not giving the service', async () => {
    const none = await s.t.call('POST', '/waitlist', {
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      customer_phone: 'nope',
    });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({
      windows: ['Give at least one wanted time, or any_time.'],
      customer_phone: ['The customer phone must be a valid phone number.'],
    });
    const backwards = await s.t.call('POST', '/waitlist', {
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      customer_phone: '+4915100000002',
      windows: [{ date: '2026-09-20', from: '12:00', to: '10:00' }],
    });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors).toEqual({ 'windows.0.to': ['The end must be after the start.'] });
    const stranger = await s.t.call('POST', '/waitlist', {
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      staffer_uuid: '00000000-0000-4000-8000-000000000000',
      customer_phone: '+4915100000002',
      any_time: true,
    });
    expect(stranger.statusCode).toBe(422);
    expect(Object.keys(stranger.json().errors)).toEqual(['staffer_uuid']);
  });
});

describe('a freed time goes to the first in line, then after expiry to the next', () => {
  it('cancel → offer to the first only; 30 minutes on → expired, offered to the second; claim books it', async () => {
    const day = s.nextDay();
    // Ben is away that morning: Anna's 10:00 is the only haircut at 10:00.
    const benBusy = await book(
      s.t,
      bookingBody(s.f, at(day, '10:00'), { staffer_uuid: s.f.ben.id, customer_phone: '+4915100000090' }),
    );
    const taken = await book(s.t, bookingBody(s.f, at(day, '10:00'), { customer_phone: '+4915100000091' }));
    expect(benBusy.uuid).not.toBe(taken.uuid);
    const first = await join({
      customer_phone: '+4915100000010',
      windows: [{ date: day, from: '09:00', to: '11:00' }],
    });
    s.clock.advance(1000);
    const second = await join({
      customer_phone: '+4915100000011',
      any_time: true,
      staffer_uuid: s.f.anna.id,
    });
    s.clock.advance(1000);
    // Wants another day: never offered this time.
    const other = await join({
      customer_phone: '+4915100000012',
      windows: [{ date: '2026-09-30', from: '09:00', to: '11:00' }],
    });

    await change(s.t, 'PUT', `/bookings/${taken.uuid}/status/cancel`, { cancel_reason: 'canceled' });
    await dispatch();
    await dispatch(); // the offer's own event
    expect(faults).toEqual([]);

    const [offer] = await offersOf(first.uuid);
    expect(offer).toEqual({
      uuid: expect.any(String),
      entry_uuid: first.uuid,
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      staffer_uuid: s.f.anna.id,
      start_time: at(day, '10:00'),
      held_until: '2026-09-01T08:30:02Z',
      state: 'open',
      made_by: 'freed',
      booking_uuid: null,
      created_at: '2026-09-01T08:00:02Z',
    });
    expect(await offersOf(second.uuid)).toEqual([]);
    expect(await offersOf(other.uuid)).toEqual([]);
    expect((await entry(first.uuid)).state).toBe('offered');

    // A round before the hold ends changes nothing.
    // (The round spans every workspace of the store: on a shared database other files' offers
    // are its business too, so this checks what it did here, not its counts.)
    s.clock.advance(29 * 60_000);
    await round();
    expect((await offersOf(first.uuid)).map((o) => o.state)).toEqual(['open']);
    expect(await offersOf(second.uuid)).toEqual([]);
    s.clock.advance(60_000);
    await round();
    expect((await offersOf(first.uuid)).map((o) => o.state)).toEqual(['expired']);
    expect((await entry(first.uuid)).state).toBe('waiting');
    const [next] = await offersOf(second.uuid);
    expect(next).toMatchObject({
      state: 'open',
      start_time: at(day, '10:00'),
      held_until: '2026-09-01T09:00:02Z',
    });

    // The expired offer cannot be claimed any more.
    const late = await s.t.call('POST', '/waitlist/offers/claim', { token: tokenOf(offer.uuid) });
    expect(late.statusCode).toBe(410);
    expect(late.json().code).toBe('offer_gone');

    const claimed = await s.t.call('POST', '/waitlist/offers/claim', { token: tokenOf(next.uuid) });
    expect(claimed.statusCode, claimed.body).toBe(201);
    const booking = claimed.json().data;
    expect(booking).toMatchObject({
      start_time: at(day, '10:00'),
      source: 'waitlist',
      staffer: { uuid: s.f.anna.id },
      customer: { phone: '+4915100000011' },
    });
    expect(await entry(second.uuid)).toMatchObject({ state: 'booked', booking_uuid: booking.uuid });
    expect((await offersOf(second.uuid))[0]).toMatchObject({ state: 'claimed', booking_uuid: booking.uuid });
    // A second claim of the same offer: gone, no second booking.
    const again = await s.t.call('POST', '/waitlist/offers/claim', { token: tokenOf(next.uuid) });
    expect(again.statusCode).toBe(410);

    const events = await offerEvents();
    expect(events).toEqual([
      ['waitlist-offer-created', offer.uuid, 'open'],
      ['waitlist-offer-expired', offer.uuid, 'expired'],
      ['waitlist-offer-created', next.uuid, 'open'],
      ['waitlist-offer-claimed', next.uuid, 'claimed'],
    ]);
    // After the second person's claim, nobody's offer is open, the first still waits.
    expect((await entry(first.uuid)).state).toBe('waiting');
    await round();
    expect((await offersOf(first.uuid)).map((o) => o.state)).toEqual(['expired']);
    expect((await offersOf(second.uuid)).map((o) => o.state)).toEqual(['claimed']);
    for (const id of [first.uuid, other.uuid]) await s.t.call('DELETE', `/waitlist/${id}`);
  });

  it('a reschedule frees the old time; a made-up or tampered token is a 404', async () => {
    const day = s.nextDay();
    await book(
      s.t,
      bookingBody(s.f, at(day, '14:00'), { staffer_uuid: s.f.ben.id, customer_phone: '+4915100000092' }),
    );
    const moving = await book(s.t, bookingBody(s.f, at(day, '14:00'), { customer_phone: '+4915100000093' }));
    const waiting = await join({
      customer_phone: '+4915100000020',
      windows: [{ date: day, from: '14:00', to: '15:00' }],
    });
    await change(s.t, 'PUT', `/bookings/${moving.uuid}/reschedule`, { reserved_on: at(day, '16:00') });
    await dispatch();
    const [offer] = await offersOf(waiting.uuid);
    expect(offer).toMatchObject({ state: 'open', start_time: at(day, '14:00'), staffer_uuid: s.f.anna.id });
    const token = tokenOf(offer.uuid);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const bad = await s.t.call('POST', '/waitlist/offers/claim', { token: tampered });
    expect(bad.statusCode).toBe(404);
    await s.t.call('DELETE', `/waitlist/${waiting.uuid}`);
    // Leaving withdrew the offer.
    expect((await offersOf(waiting.uuid))[0].state).toBe('withdrawn');
  });

  it('all at once (a setting): everyone it suits gets the offer; the first claim withdraws the others', async () => {
    const set = await s.t.call('PUT', '/waitlist/settings', { offer_mode: 'all', hold_minutes: 15 });
    expect(set.json().data).toEqual({ offer_mode: 'all', hold_minutes: 15, auto_fill_group_seats: false });
    try {
      const day = s.nextDay();
      await book(
        s.t,
        bookingBody(s.f, at(day, '11:00'), { staffer_uuid: s.f.ben.id, customer_phone: '+4915100000094' }),
      );
      const taken = await book(s.t, bookingBody(s.f, at(day, '11:00'), { customer_phone: '+4915100000095' }));
      const a = await join({ customer_phone: '+4915100000030', any_time: true });
      const b = await join({
        customer_phone: '+4915100000031',
        windows: [{ date: day, from: '11:00', to: '11:01' }],
      });
      await change(s.t, 'PUT', `/bookings/${taken.uuid}/status/cancel`, {});
      await dispatch();
      const [offerA] = await offersOf(a.uuid);
      const [offerB] = await offersOf(b.uuid);
      expect(offerA.held_until).toBe(
        plusMinutes(new Date(s.clock.now()).toISOString(), 15).replace(/\.\d{3}Z$/, 'Z'),
      );
      const claimed = await s.t.call('POST', '/waitlist/offers/claim', { token: tokenOf(offerB.uuid) });
      expect(claimed.statusCode, claimed.body).toBe(201);
      expect((await offersOf(a.uuid))[0].state).toBe('withdrawn');
      expect((await entry(a.uuid)).state).toBe('waiting');
      const lost = await s.t.call('POST', '/waitlist/offers/claim', { token: tokenOf(offerA.uuid) });
      expect(lost.json()).toMatchObject({ code: 'offer_gone' });
      await s.t.call('DELETE', `/waitlist/${a.uuid}`);
    } finally {
      await s.t.call('PUT', '/waitlist/settings', { offer_mode: 'one', hold_minutes: 30 });
    }
  });
});

describe('staff offer a time by hand', () => {
  it('offers a free time, refuses one already offered and one not free', async () => {
    const day = s.nextDay();
    const a = await join({ customer_phone: '+4915100000040', any_time: true });
    const b = await join({ customer_phone: '+4915100000041', any_time: true });
    const made = await s.t.call('POST', `/waitlist/${a.uuid}/offers`, {
      reserved_on: at(day, '13:00'),
      staffer_uuid: s.f.anna.id,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data).toMatchObject({ made_by: 'staff', state: 'open', start_time: at(day, '13:00') });
    const twice = await s.t.call('POST', `/waitlist/${b.uuid}/offers`, {
      reserved_on: at(day, '13:00'),
      staffer_uuid: s.f.anna.id,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('time_offered');
    const closed = await s.t.call('POST', `/waitlist/${b.uuid}/offers`, { reserved_on: at(day, '20:00') });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().code).toBe('slot_unavailable');
    for (const id of [a.uuid, b.uuid]) await s.t.call('DELETE', `/waitlist/${id}`);
  });
});

describe('correct under races', () => {
  it('many concurrent claims of one offer make one booking', async () => {
    const day = s.nextDay();
    const a = await join({ customer_phone: phoneNumber(500), any_time: true });
    const made = await s.t.call('POST', `/waitlist/${a.uuid}/offers`, {
      reserved_on: at(day, '09:00'),
      staffer_uuid: s.f.anna.id,
    });
    const token = tokenOf(made.json().data.uuid);
    const send = await sender();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        send(
          'POST',
          '/waitlist/offers/claim',
          { ...s.t.headers, 'idempotency-key': `many-claims-${i}` },
          { token },
        ),
      ),
    );
    const statuses = answers.map((x) => x.status).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(410)]);
    const bookings = await s.t.db
      .selectFrom('bookings')
      .select('id')
      .where('workspace_id', '=', s.t.workspace.id)
      .where('source', '=', 'waitlist')
      .where('start_time', '=', new Date(at(day, '09:00')))
      .execute();
    expect(bookings).toHaveLength(1);
  });

  it('a claim after a direct booking took the time: offer_time_taken, the person waits on (with a key too)', async () => {
    const day = s.nextDay();
    const person = await join({ customer_phone: phoneNumber(650), any_time: true });
    const made = await s.t.call('POST', `/waitlist/${person.uuid}/offers`, {
      reserved_on: at(day, '16:00'),
      staffer_uuid: s.f.anna.id,
    });
    await book(s.t, bookingBody(s.f, at(day, '16:00'), { customer_phone: phoneNumber(651) }));
    const claim = await s.t.call(
      'POST',
      '/waitlist/offers/claim',
      { token: tokenOf(made.json().data.uuid) },
      { 'idempotency-key': 'claim-after-direct' },
    );
    expect(claim.statusCode, claim.body).toBe(409);
    expect(claim.json()).toEqual({
      message: 'This time was taken meanwhile; you stay on the waiting list.',
      code: 'offer_time_taken',
    });
    expect((await entry(person.uuid)).state).toBe('waiting');
    expect((await offersOf(person.uuid))[0].state).toBe('withdrawn');
    await s.t.call('DELETE', `/waitlist/${person.uuid}`);
  });

  it('a claim and a direct booking of the same time at once make one booking', async () => {
    const send = await sender();
    const outcomes: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const day = s.nextDay();
      const person = await join({ customer_phone: phoneNumber(600 + round), any_time: true });
      const made = await s.t.call('POST', `/waitlist/${person.uuid}/offers`, {
        reserved_on: at(day, '15:00'),
        staffer_uuid: s.f.anna.id,
      });
      const token = tokenOf(made.json().data.uuid);
      const [claim, direct] = await Promise.all([
        // With a key, as a careful client sends it: a lost race must still answer clearly.
        send(
          'POST',
          '/waitlist/offers/claim',
          { ...s.t.headers, 'idempotency-key': `race-claim-${round}` },
          { token },
        ),
        send(
          'POST',
          '/bookings',
          s.t.headers,
          bookingBody(s.f, at(day, '15:00'), { customer_phone: phoneNumber(700 + round) }),
        ),
      ]);
      const pair = [claim.status, direct.status];
      expect([
        [201, 409],
        [409, 201],
      ]).toContainEqual(pair);
      if (claim.status === 409) {
        expect(claim.body.code).toBe('offer_time_taken');
        // The person waits on; the offer is withdrawn.
        expect((await entry(person.uuid)).state).toBe('waiting');
        expect((await offersOf(person.uuid))[0].state).toBe('withdrawn');
        await s.t.call('DELETE', `/waitlist/${person.uuid}`);
      } else {
        expect(direct.body.code).toBe('slot_unavailable');
      }
      outcomes.push(claim.status === 201 ? 'claim' : 'direct');
      const live = await s.t.db
        .selectFrom('bookings as b')
        .innerJoin('booking_statuses as st', (j) =>
          j.onRef('st.workspace_id', '=', 'b.workspace_id').onRef('st.id', '=', 'b.status_id'),
        )
        .select('b.id')
        .where('b.workspace_id', '=', s.t.workspace.id)
        .where('b.staffer_id', '=', s.f.anna.id)
        .where('b.start_time', '=', new Date(at(day, '15:00')))
        .where('st.type', '<>', 'canceled')
        .execute();
      expect(live).toHaveLength(1);
    }
    expect(outcomes).toHaveLength(6);
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
