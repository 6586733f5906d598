import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import {
  type Answer,
  expectOnlySlotConflicts,
  expectSound,
  freshStudio,
  phoneNumber,
  type Send,
  type Studio,
  senderFor,
  statusCounts,
} from '../helpers/concurrency.js';
import { createStaffer } from '../helpers/factories.js';

/**
 * No double booking: many requests for one slot at the same moment, and the database
 * lets exactly as many through as there are places. On PGlite the requests are injected all at
 * once (the store serialises them); with TEST_DATABASE_URL they go over a real socket to a
 * connection pool of 20, so the transactions truly overlap and only the constraints can decide.
 * Each scenario has a workspace of its own; after each, SQL checks what the database holds.
 */
const NOW = '2026-09-01T08:00:00Z';
const CROWD = 50;

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

const createBody = (
  s: Studio,
  index: number,
  values: { service: string; start: string; staffer?: string | undefined },
) => ({
  reserved_on: values.start,
  location_uuid: s.location.id,
  service_uuid: values.service,
  ...(values.staffer ? { staffer_uuid: values.staffer } : {}),
  customer_phone: phoneNumber(index),
  customer_first_name: `Guest ${index}`,
});

/** Creates one booking one at a time (set-up for the change scenarios). */
async function book(s: Studio, index: number, service: string, staffer: string, hhmm: string) {
  const answer = await send(
    'POST',
    '/bookings',
    s.headers,
    createBody(s, index, { service, staffer, start: berlin(hhmm) }),
  );
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data!.uuid;
}

function fire(requests: (() => Promise<Answer>)[]): Promise<Answer[]> {
  return Promise.all(requests.map((request) => request()));
}

describe('concurrent creates at one slot', () => {
  it(`individual service with a staffer: of ${CROWD} creates exactly one is 201, the rest 409`, async () => {
    const s = await freshStudio(t);
    const answers = await fire(
      Array.from(
        { length: CROWD },
        (_, i) => () =>
          send(
            'POST',
            '/bookings',
            s.headers,
            createBody(s, i, { service: s.haircut.id, staffer: s.anna.id, start: berlin('12:00') }),
          ),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 1, 409: CROWD - 1 });
    const [winner] = expectOnlySlotConflicts(answers, 201);
    expect(winner!.body.data).toMatchObject({ start_time: berlin('12:00'), staffer: { uuid: s.anna.id } });
    await expectSound(t.db, s.workspaceId, 1);
  });

  it(`group class of capacity 5: of ${CROWD} creates exactly 5 are 201, all in one occupancy`, async () => {
    const s = await freshStudio(t, 5);
    const answers = await fire(
      Array.from(
        { length: CROWD },
        (_, i) => () =>
          send(
            'POST',
            '/bookings',
            s.headers,
            createBody(s, i, { service: s.pilates.id, staffer: s.anna.id, start: berlin('12:00') }),
          ),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 5, 409: CROWD - 5 });
    expectOnlySlotConflicts(answers, 201);
    await expectSound(t.db, s.workspaceId, 5);
    const seats = await t.db
      .selectFrom('occupancies')
      .select(['seats_taken', 'capacity'])
      .where('workspace_id', '=', s.workspaceId)
      .execute();
    expect(seats).toEqual([{ seats_taken: 5, capacity: 5 }]);
  });

  it(`automatic staffer assignment with two staffers: of ${CROWD} creates exactly 2 succeed, one each`, async () => {
    const s = await freshStudio(t);
    await t.db
      .updateTable('workspaces')
      .set({ staffer_selection: 'automatic' })
      .where('id', '=', s.workspaceId)
      .execute();
    // Color is done by Anna and Ben only.
    const answers = await fire(
      Array.from(
        { length: CROWD },
        (_, i) => () =>
          send(
            'POST',
            '/bookings',
            s.headers,
            createBody(s, i, { service: s.color.id, start: berlin('12:00') }),
          ),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 2, 409: CROWD - 2 });
    const winners = expectOnlySlotConflicts(answers, 201);
    const staffers = winners.map((w) => (w.body.data!.staffer as { uuid: string }).uuid).sort();
    expect(staffers).toEqual([s.anna.id, s.ben.id].sort());
    await expectSound(t.db, s.workspaceId, 2);
  });

  it('overlapping but different starts (12:00 and 12:30, 60 minutes, one staffer): exactly one', async () => {
    const s = await freshStudio(t);
    const answers = await fire(
      Array.from(
        { length: CROWD },
        (_, i) => () =>
          send(
            'POST',
            '/bookings',
            s.headers,
            createBody(s, i, {
              service: s.haircut.id,
              staffer: s.anna.id,
              start: berlin(i % 2 === 0 ? '12:00' : '12:30'),
            }),
          ),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 201: 1, 409: CROWD - 1 });
    expectOnlySlotConflicts(answers, 201);
    await expectSound(t.db, s.workspaceId, 1);
  });
});

describe('concurrent changes obey the same guarantee', () => {
  it('bookings of one staffer rescheduled at once to the same free time: exactly one moves', async () => {
    const s = await freshStudio(t);
    // Haircut (60 min) and Color (30 min) mixed: the same start with the same service meets the
    // unique key, with another service the exclusion constraint.
    const plan = [
      [s.haircut.id, '09:00'],
      [s.color.id, '10:00'],
      [s.haircut.id, '10:30'],
      [s.color.id, '11:30'],
      [s.haircut.id, '12:00'],
      [s.color.id, '13:00'],
    ] as const;
    const ids: string[] = [];
    for (const [index, [service, hhmm]] of plan.entries())
      ids.push(await book(s, index, service, s.anna.id, hhmm));
    const answers = await fire(
      ids.map(
        (id) => () => send('PUT', `/bookings/${id}/reschedule`, s.headers, { reserved_on: berlin('15:00') }),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 200: 1, 409: ids.length - 1 });
    const [moved] = expectOnlySlotConflicts(answers, 200);
    expect(moved!.body.data).toMatchObject({ start_time: berlin('15:00') });
    await expectSound(t.db, s.workspaceId, ids.length);
    // The losers kept their own times.
    const starts = await t.db
      .selectFrom('bookings')
      .select(['id', 'start_time'])
      .where('workspace_id', '=', s.workspaceId)
      .execute();
    for (const [index, id] of ids.entries()) {
      const start = starts
        .find((row) => row.id === id)!
        .start_time.toISOString()
        .replace('.000Z', 'Z');
      expect(start).toBe(id === moved!.body.data!.uuid ? berlin('15:00') : berlin(plan[index]![1]));
    }
  });

  it('two bookings at one time changed at once to the same staffer: exactly one per time', async () => {
    const s = await freshStudio(t);
    const cara = await createStaffer(t.db, s.workspaceId, s.location.id, [s.haircut.id, s.color.id], {
      firstName: 'Cara',
    });
    // Six times; at each, Anna and Ben have a booking and both are moved to Cara at once. Half
    // the pairs differ in service (exclusion constraint), half share it (unique key).
    const times = ['09:00', '10:00', '11:00', '12:00', '13:00', '14:00'];
    const pairs: [string, string][] = [];
    for (const [index, hhmm] of times.entries()) {
      const benService = index % 2 === 0 ? s.haircut.id : s.color.id;
      pairs.push([
        await book(s, 2 * index, s.haircut.id, s.anna.id, hhmm),
        await book(s, 2 * index + 1, benService, s.ben.id, hhmm),
      ]);
    }
    const answers = await fire(
      pairs
        .flat()
        .map((id) => () => send('PUT', `/bookings/${id}/staffer`, s.headers, { staffer_uuid: cara.id })),
    );
    expect(statusCounts(answers)).toEqual({ 200: times.length, 409: times.length });
    expectOnlySlotConflicts(answers, 200);
    for (const [index, pair] of pairs.entries()) {
      const outcomes = pair.map((id) => answers[pairs.flat().indexOf(id)]!.status).sort();
      expect(outcomes, `pair at ${times[index]}`).toEqual([200, 409]);
    }
    await expectSound(t.db, s.workspaceId, 2 * times.length);
  });
});
