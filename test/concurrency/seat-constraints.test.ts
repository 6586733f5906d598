import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawQuery } from '../../src/platform/db/client.js';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { freshStudio, type Studio } from '../helpers/concurrency.js';

/**
 * The database, not a check in code, refuses a double booking. These tests write
 * seats with plain SQL, past every check the API makes, and expect the schema itself to say no:
 * 23P01 (exclusion) for overlapping seats of one staffer, 23514 (CHECK) for a seat beyond capacity.
 * On PostgreSQL a second session is also shown to wait for the first and then be refused.
 */
let t: TestApp;
let s: Studio;

beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-09-01T08:00:00Z') });
  s = await freshStudio(t, 2);
});
afterAll(() => t?.close());

const INSERT_SEAT = `
  INSERT INTO occupancies (workspace_id, staffer_id, location_id, service_id, service_start, span, capacity, seats_taken)
  VALUES ($1, $2, $3, $4, $5::timestamptz, tstzrange($5::timestamptz, $6::timestamptz), $7, $8)
  ON CONFLICT (workspace_id, staffer_id, service_start, service_id)
  DO UPDATE SET seats_taken = occupancies.seats_taken + excluded.seats_taken`;

/** A seat for `staffer` from `from` to `to` (UTC), as takeSeat would write it. */
function seat(
  query: RawQuery,
  values: { staffer: string; service: string; from: string; to: string; capacity?: number; seats?: number },
) {
  return query(INSERT_SEAT, [
    s.workspaceId,
    values.staffer,
    s.location.id,
    values.service,
    values.from,
    values.to,
    values.capacity ?? 1,
    values.seats ?? 1,
  ]);
}

const sqlState = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string }) => error.code,
  );

describe('the schema refuses a double booking by itself', () => {
  it('overlapping seats of one staffer: 23P01; touching spans, another staffer, empty rows: fine', async () => {
    await t.database.session(async (query) => {
      const haircut = { service: s.haircut.id, staffer: s.anna.id };
      expect(
        await sqlState(seat(query, { ...haircut, from: '2026-09-11T10:00Z', to: '2026-09-11T11:00Z' })),
      ).toBe('ok');
      // Another service, half an hour later: only the exclusion constraint can see this one.
      expect(
        await sqlState(
          seat(query, {
            service: s.color.id,
            staffer: s.anna.id,
            from: '2026-09-11T10:30Z',
            to: '2026-09-11T11:00Z',
          }),
        ),
      ).toBe('23P01');
      // The same start and service: the seat count goes to 2 of capacity 1.
      expect(
        await sqlState(seat(query, { ...haircut, from: '2026-09-11T10:00Z', to: '2026-09-11T11:00Z' })),
      ).toBe('23514');
      expect(
        await sqlState(seat(query, { ...haircut, from: '2026-09-11T11:00Z', to: '2026-09-11T12:00Z' })),
      ).toBe('ok');
      expect(
        await sqlState(
          seat(query, {
            service: s.haircut.id,
            staffer: s.ben.id,
            from: '2026-09-11T10:00Z',
            to: '2026-09-11T11:00Z',
          }),
        ),
      ).toBe('ok');
      // A row whose seats were all released (canceled) blocks nothing.
      expect(
        await sqlState(
          seat(query, {
            service: s.color.id,
            staffer: s.ben.id,
            from: '2026-09-11T12:00Z',
            to: '2026-09-11T13:00Z',
            seats: 0,
          }),
        ),
      ).toBe('ok');
      expect(
        await sqlState(
          seat(query, {
            service: s.haircut.id,
            staffer: s.ben.id,
            from: '2026-09-11T12:00Z',
            to: '2026-09-11T13:00Z',
          }),
        ),
      ).toBe('ok');
    });
  });

  it('a group seat beyond capacity: 23514', async () => {
    await t.database.session(async (query) => {
      const pilates = {
        service: s.pilates.id,
        staffer: s.anna.id,
        from: '2026-09-12T10:00Z',
        to: '2026-09-12T11:00Z',
        capacity: 2,
      };
      expect(await sqlState(seat(query, pilates))).toBe('ok');
      expect(await sqlState(seat(query, pilates))).toBe('ok');
      expect(await sqlState(seat(query, pilates))).toBe('23514');
      const rows = await query(
        'SELECT seats_taken FROM occupancies WHERE workspace_id = $1 AND service_id = $2',
        [s.workspaceId, s.pilates.id],
      );
      expect(rows).toEqual([{ seats_taken: 2 }]);
    });
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'PostgreSQL: a second session waits for the first, then is refused when it commits',
    async () => {
      const first = {
        service: s.haircut.id,
        staffer: s.anna.id,
        from: '2026-09-13T10:00Z',
        to: '2026-09-13T11:00Z',
      };
      const second = {
        service: s.color.id,
        staffer: s.anna.id,
        from: '2026-09-13T10:30Z',
        to: '2026-09-13T11:00Z',
      };
      await t.database.session(async (a) => {
        await t.database.session(async (b) => {
          await a('BEGIN');
          await seat(a, first);
          const [{ pid }] = (await b('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
          const refused = sqlState(seat(b, second));
          // b cannot decide while a's seat is uncommitted: it waits on a's transaction lock. The
          // server has no event for that, so ask it until it says so (bounded).
          await t.database.session(async (watch) => {
            const deadline = Date.now() + 10_000;
            let waiting = '';
            while (waiting !== 'Lock' && Date.now() < deadline) {
              const [row] = await watch('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pid]);
              waiting = String(row?.wait_event_type ?? '');
            }
            expect(waiting, 'second session waits on a lock').toBe('Lock');
          });
          await a('COMMIT');
          expect(await refused).toBe('23P01');
        });
      });
    },
  );
});
