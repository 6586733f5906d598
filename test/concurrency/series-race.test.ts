import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import {
  type Answer,
  expectSound,
  freshStudio,
  phoneNumber,
  type Send,
  senderFor,
} from '../helpers/concurrency.js';

/**
 * A series and single bookings racing for one date (docs/series.md): the occurrence is made
 * through the normal create, so the exclusion constraint decides and exactly one of them gets
 * the time. On PGlite the requests are injected at once; with TEST_DATABASE_URL they go over a
 * socket to a pool, so the transactions truly overlap.
 */
const NOW = '2026-09-01T08:00:00Z';
const ROUNDS = 20;
const SINGLES = 4;

let t: TestApp;
let send: Send;
beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock(NOW) });
  send = await senderFor(t);
});
afterAll(() => t?.close());

/** A Berlin summer wall time (UTC+2) as a UTC instant, by hand. */
const berlin = (day: number, hour: number) =>
  new Date(Date.UTC(2026, 8, day, hour - 2, 0)).toISOString().replace('.000Z', 'Z');

describe('a series and single bookings for one date', () => {
  it(`over ${ROUNDS} rounds exactly one of them gets the contested date`, async () => {
    const s = await freshStudio(t);
    let live = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Round r: weekly from 2 Sept + r at hour 9 + r mod 8; no two rounds share a time.
      const day = 2 + round;
      const hour = 9 + (round % 8);
      const mode = round % 2 === 0 ? 'all_or_nothing' : 'book_free';
      const base = {
        location_uuid: s.location.id,
        service_uuid: s.haircut.id,
        staffer_uuid: s.anna.id,
      };
      const series = () =>
        send('POST', '/series', s.headers, {
          ...base,
          reserved_on: berlin(day, hour),
          customer_phone: phoneNumber(1000 + round),
          recurrence: { frequency: 'weekly', count: 3, mode },
        });
      const single = (i: number) => () =>
        send('POST', '/bookings', s.headers, {
          ...base,
          reserved_on: berlin(day + 7, hour),
          customer_phone: phoneNumber(round * 10 + i),
        });
      const answers: Answer[] = await Promise.all([
        series(),
        ...Array.from({ length: SINGLES }, (_, i) => single(i)()),
      ]);
      const [seriesAnswer, ...singles] = answers as [Answer, ...Answer[]];
      const singlesBooked = singles.filter((a) => a.status === 201).length;
      for (const a of singles) {
        if (a.status !== 201) expect([a.status, a.body.code]).toEqual([409, 'slot_unavailable']);
      }
      expect(singlesBooked, `round ${round}`).toBeLessThanOrEqual(1);
      const results = (seriesAnswer.body.results ?? []) as { date: string; result: string }[];
      const contested = results.find((r) => r.date === `2026-09-${String(day + 7).padStart(2, '0')}`);
      const seriesGotIt = seriesAnswer.status === 201 && contested?.result === 'booked';
      // Exactly one: the series' occurrence or one single booking.
      expect(
        Number(seriesGotIt) + singlesBooked,
        `round ${round}: ${JSON.stringify(seriesAnswer.body)}`,
      ).toBe(1);
      if (seriesGotIt) {
        live += 3;
      } else if (mode === 'all_or_nothing') {
        expect([seriesAnswer.status, seriesAnswer.body.code]).toEqual([409, 'series_conflict']);
        live += 1;
      } else {
        expect(seriesAnswer.status).toBe(201);
        expect(results.map((r) => r.result)).toEqual(['booked', 'conflict', 'booked']);
        live += 3;
      }
    }
    await expectSound(t.db, s.workspaceId, live);
  });
});
