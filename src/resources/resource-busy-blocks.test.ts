import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { phoneNumber } from '../../test/helpers/concurrency.js';
import { createLocation, createService, createStaffer } from '../../test/helpers/factories.js';
import { AppError } from '../errors.js';
import { projectRoot } from '../platform/db/project-root.js';
import { type Interval, mergeBusy } from '../platform/time/busy-union.js';
import { openWritePath } from '../write-path.js';
import { holdUnits, releaseUnitsIfEmpty, replaceUnits } from './resource-occupancies.repository.js';

/**
 * The rooms' busy pieces (resource_busy_blocks, migration 0041), which the time-slot read takes
 * instead of every hold: after any sequence of holds, releases and moves they cover exactly what
 * the holds cover, they never overlap, none is longer than a day, and the migration's backfill
 * derives the same union from the same holds.
 */
const H = 3_600_000;
const DAY_MS = 24 * H;
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-09-01T08:00:00Z') });
});
afterAll(() => t?.close());

async function piecesOf(workspaceId: string, resourceId: string): Promise<Interval[]> {
  const rows = await t.db
    .selectFrom('resource_busy_blocks')
    .select(['start_ms', 'end_ms'])
    .where('workspace_id', '=', workspaceId)
    .where('resource_id', '=', resourceId)
    .orderBy('start_ms')
    .execute();
  return rows.map((r) => ({ start: r.start_ms, end: r.end_ms }));
}

async function holdsOf(workspaceId: string, resourceId: string): Promise<Interval[]> {
  const rows = await t.db
    .selectFrom('resource_occupancies')
    .select(['start_ms', 'end_ms'])
    .where('workspace_id', '=', workspaceId)
    .where('resource_id', '=', resourceId)
    .execute();
  return rows.map((r) => ({ start: r.start_ms, end: r.end_ms }));
}

/** Pieces never overlap and last a day at most; together they cover what the holds cover. */
async function expectPiecesMatchHolds(workspaceId: string, resourceId: string): Promise<void> {
  const pieces = await piecesOf(workspaceId, resourceId);
  for (let i = 0; i < pieces.length; i++) {
    expect(pieces[i]!.end - pieces[i]!.start).toBeGreaterThan(0);
    expect(pieces[i]!.end - pieces[i]!.start).toBeLessThanOrEqual(DAY_MS);
    if (i > 0) expect(pieces[i]!.start).toBeGreaterThanOrEqual(pieces[i - 1]!.end);
  }
  expect(mergeBusy(pieces)).toEqual(mergeBusy(await holdsOf(workspaceId, resourceId)));
}

/**
 * A workspace of its own with one location, `staffers` staffers of a 60-minute service that needs
 * one unit of `type`, and its API (the units are made by `unit`).
 */
async function studioOf(options: { timezone: string; staffers: number; type: string }) {
  const other = await createOtherWorkspace(t.db);
  const ws = other.workspace.id;
  const location = await createLocation(t.db, ws, { timezone: options.timezone });
  const service = await createService(t.db, ws, [location.id], { name: 'Massage', durationMinutes: 60 });
  for (let i = 0; i < options.staffers; i++)
    await createStaffer(t.db, ws, location.id, [service.id], { firstName: `S${i}` });
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await t.app.inject({
      method: method as 'GET',
      url: `${API}${url}`,
      headers: other.headers,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    return { status: response.statusCode, body: response.body === '' ? {} : response.json() };
  };
  const unit = async (name: string) => {
    const answer = await call('POST', '/resources', { location_uuid: location.id, type: options.type, name });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data.uuid as string;
  };
  const needs = await call('PATCH', `/services/${service.id}`, {
    resources: [{ type: options.type, units: 1 }],
  });
  expect(needs.status).toBe(200);
  const book = async (reservedOn: string, index: number) => {
    const answer = await call('POST', '/bookings', {
      reserved_on: reservedOn,
      location_uuid: location.id,
      service_uuid: service.id,
      customer_phone: phoneNumber(index),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.data.uuid as string;
  };
  return { ws, location, service, call, unit, book };
}

describe('resource busy pieces through the API', () => {
  it('follow creates, cancels, moves to another room and reschedules', async () => {
    const {
      ws,
      location,
      service,
      call,
      unit,
      book: bookAt,
    } = await studioOf({
      timezone: 'Europe/Berlin',
      staffers: 3,
      type: 'room',
    });
    const first = await unit('Room 1');
    const second = await unit('Room 2');
    // 2026-09-10 in Berlin is UTC+2: 09:00 local is 07:00Z.
    const at = (hhmmUtc: string) => `2026-09-10T${hhmmUtc}:00Z`;
    const ms = (hhmmUtc: string) => Date.parse(at(hhmmUtc));
    const book = (hhmmUtc: string, index: number) => bookAt(at(hhmmUtc), index);

    const nine = await book('07:00', 1);
    const ten = await book('08:00', 2);
    const noon = await book('10:00', 3);
    // Two touching hours are one piece; the first free room is taken each time.
    expect(await piecesOf(ws, first)).toEqual([
      { start: ms('07:00'), end: ms('09:00') },
      { start: ms('10:00'), end: ms('11:00') },
    ]);
    expect(await piecesOf(ws, second)).toEqual([]);

    expect((await call('PUT', `/bookings/${ten}/status/cancel`, {})).status).toBe(200);
    expect(await piecesOf(ws, first)).toEqual([
      { start: ms('07:00'), end: ms('08:00') },
      { start: ms('10:00'), end: ms('11:00') },
    ]);

    expect((await call('PUT', `/bookings/${noon}/resources`, { resource_uuids: [second] })).status).toBe(200);
    expect(await piecesOf(ws, first)).toEqual([{ start: ms('07:00'), end: ms('08:00') }]);
    expect(await piecesOf(ws, second)).toEqual([{ start: ms('10:00'), end: ms('11:00') }]);

    const moved = await call('PUT', `/bookings/${nine}/reschedule`, { reserved_on: at('08:00') });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await piecesOf(ws, first)).toEqual([{ start: ms('08:00'), end: ms('09:00') }]);
    await expectPiecesMatchHolds(ws, first);
    await expectPiecesMatchHolds(ws, second);

    // The slot read takes the pieces: with Room 1 busy 10:00-11:00 local and Room 2 12:00-13:00,
    // 10:00 and 12:00 each have one room left, 11:00 has both.
    const slots = await call(
      'GET',
      `/locations/${location.id}/time-slots?service_uuid=${service.id}&range_start=2026-09-10&range_end=2026-09-10`,
    );
    expect(slots.status).toBe(200);
    const quantity = new Map(
      (slots.body.dates[0].slots as { start: string; quantity: number }[]).map((s) => [s.start, s.quantity]),
    );
    expect([quantity.get('10:00'), quantity.get('11:00'), quantity.get('12:00')]).toEqual([1, 2, 1]);
  });
});

describe('resource busy pieces under concurrent changes', () => {
  it('eight neighbouring bookings of one room cancelled at once leave no piece', async () => {
    const { ws, call, unit, book } = await studioOf({ timezone: 'UTC', staffers: 1, type: 'studio' });
    const studio = await unit('Studio A');
    const bookings: string[] = [];
    for (let hour = 9; hour < 17; hour++)
      bookings.push(await book(`2026-09-10T${String(hour).padStart(2, '0')}:00:00Z`, hour));
    expect(await piecesOf(ws, studio)).toEqual([
      { start: Date.parse('2026-09-10T09:00:00Z'), end: Date.parse('2026-09-10T17:00:00Z') },
    ]);
    // Each cancel rewrites the same piece from the holds it reads: without the unit's lock, one
    // would write back a neighbour's hold that another had just released.
    const answers = await Promise.all(
      bookings.map((uuid) => call('PUT', `/bookings/${uuid}/status/cancel`, {})),
    );
    expect(answers.map((a) => a.status)).toEqual(bookings.map(() => 200));
    expect(await holdsOf(ws, studio)).toEqual([]);
    expect(await piecesOf(ws, studio)).toEqual([]);
  });
});

describe('resource busy pieces under any sequence of changes', () => {
  it('cover exactly what the holds cover (fast-check)', async () => {
    const other = await createOtherWorkspace(t.db);
    const ws = other.workspace.id;
    const location = await createLocation(t.db, ws, { timezone: 'UTC' });
    const service = await createService(t.db, ws, [location.id], { name: 'Sauna', durationMinutes: 60 });
    const OPS = 12;
    const staffers: string[] = [];
    for (let i = 0; i < OPS; i++)
      staffers.push((await createStaffer(t.db, ws, location.id, [service.id], { firstName: `S${i}` })).id);
    const { uow } = openWritePath(t.db);
    const base = Date.parse('2026-10-01T00:00:00Z');
    let run = 0;

    const op = fc.oneof(
      fc.record({
        kind: fc.constant('hold' as const),
        startQuarter: fc.integer({ min: 0, max: 4 * 72 }),
        quarters: fc.integer({ min: 1, max: 4 * 40 }),
        room: fc.integer({ min: 0, max: 1 }),
      }),
      fc.record({ kind: fc.constant('release' as const), target: fc.nat() }),
      fc.record({ kind: fc.constant('move' as const), target: fc.nat() }),
    );

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: OPS }), async (ops) => {
        // Each run on rooms of its own and a week of its own, so runs never meet.
        const dayZero = base + run * 7 * DAY_MS;
        run += 1;
        const rooms: string[] = [];
        for (const name of ['A', 'B']) {
          const row = await t.db
            .insertInto('resources')
            .values({ workspace_id: ws, location_id: location.id, type: 'room', name: `${name}${run}` })
            .returning('id')
            .executeTakeFirstOrThrow();
          rooms.push(row.id);
        }
        const sessions: { id: string; startMs: number; endMs: number; span: string; room: number }[] = [];
        for (const [index, step] of ops.entries()) {
          if (step.kind === 'hold') {
            const start = new Date(dayZero + step.startQuarter * 15 * 60_000);
            const end = new Date(start.getTime() + step.quarters * 15 * 60_000);
            const session = await t.db
              .insertInto('occupancies')
              .values({
                workspace_id: ws,
                staffer_id: staffers[index]!,
                location_id: location.id,
                service_id: service.id,
                service_start: start,
                span: sql<string>`tstzrange(${start}::timestamptz, ${end}::timestamptz)`,
                capacity: 1,
                seats_taken: 1,
              })
              .returning(['id', 'span'])
              .executeTakeFirstOrThrow();
            try {
              await uow.run(ws, (tx) =>
                holdUnits(tx, {
                  workspaceId: ws,
                  occupancyId: session.id,
                  spanStart: start,
                  spanEnd: end,
                  needs: [{ units: 1, candidates: [rooms[step.room]!] }],
                }),
              );
              sessions.push({
                id: session.id,
                startMs: start.getTime(),
                endMs: end.getTime(),
                span: session.span,
                room: step.room,
              });
            } catch (error) {
              if (!(error instanceof AppError) || error.code !== 'slot_unavailable') throw error;
            }
          } else if (sessions.length > 0) {
            const session = sessions[step.target % sessions.length]!;
            if (step.kind === 'release') {
              await uow.run(ws, async (tx) => {
                await tx
                  .updateTable('occupancies')
                  .set({ seats_taken: 0 })
                  .where('workspace_id', '=', ws)
                  .where('id', '=', session.id)
                  .execute();
                await releaseUnitsIfEmpty(tx, ws, session.id);
              });
              sessions.splice(sessions.indexOf(session), 1);
            } else {
              try {
                await uow.run(ws, (tx) =>
                  replaceUnits(tx, {
                    workspaceId: ws,
                    occupancyId: session.id,
                    span: { span: session.span, startMs: session.startMs, endMs: session.endMs },
                    // To the other room: both rooms' pieces change.
                    resourceIds: [rooms[1 - session.room]!],
                  }),
                );
                session.room = 1 - session.room;
              } catch (error) {
                if (!(error instanceof AppError) || error.code !== 'slot_unavailable') throw error;
              }
            }
          }
        }
        for (const roomId of rooms) await expectPiecesMatchHolds(ws, roomId);
      }),
      { numRuns: 25 },
    );
  });
});

describe("migration 0041's backfill", () => {
  it('derives the same pieces from the same holds', async () => {
    const other = await createOtherWorkspace(t.db);
    const ws = other.workspace.id;
    const location = await createLocation(t.db, ws, { timezone: 'UTC' });
    const service = await createService(t.db, ws, [location.id], { name: 'Court', durationMinutes: 60 });
    const staffer = await createStaffer(t.db, ws, location.id, [service.id], {});
    const roomRow = await t.db
      .insertInto('resources')
      .values({ workspace_id: ws, location_id: location.id, type: 'court', name: 'Court 1' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { uow } = openWritePath(t.db);
    const day = Date.parse('2026-11-02T00:00:00Z');
    // Overlap is impossible for one unit, so: touching, apart, and one 40-hour hold.
    for (const [from, to] of [
      [8, 9],
      [9, 10.5],
      [12, 13],
      [20, 60],
    ] as const) {
      const start = new Date(day + from * H);
      const end = new Date(day + to * H);
      const session = await t.db
        .insertInto('occupancies')
        .values({
          workspace_id: ws,
          staffer_id: staffer.id,
          location_id: location.id,
          service_id: service.id,
          service_start: start,
          span: sql<string>`tstzrange(${start}::timestamptz, ${end}::timestamptz)`,
          capacity: 1,
          seats_taken: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await uow.run(ws, (tx) =>
        holdUnits(tx, {
          workspaceId: ws,
          occupancyId: session.id,
          spanStart: start,
          spanEnd: end,
          needs: [{ units: 1, candidates: [roomRow.id] }],
        }),
      );
    }
    const written = await piecesOf(ws, roomRow.id);
    expect(mergeBusy(written)).toEqual([
      { start: day + 8 * H, end: day + 10.5 * H },
      { start: day + 12 * H, end: day + 13 * H },
      { start: day + 20 * H, end: day + 60 * H },
    ]);

    const migration = readFileSync(
      path.join(projectRoot(), 'migrations', '0041_resource_busy_blocks.sql'),
      'utf8',
    );
    const backfill = migration.slice(migration.indexOf('INSERT INTO resource_busy_blocks'));
    // The backfill covers every workspace: run it on an emptied table and roll it back.
    const derived = await t.db
      .transaction()
      .execute(async (tx) => {
        await tx.deleteFrom('resource_busy_blocks').execute();
        await sql.raw(backfill).execute(tx);
        const rows = await tx
          .selectFrom('resource_busy_blocks')
          .select(['start_ms', 'end_ms'])
          .where('workspace_id', '=', ws)
          .where('resource_id', '=', roomRow.id)
          .orderBy('start_ms')
          .execute();
        throw new RolledBack(rows.map((r) => ({ start: r.start_ms, end: r.end_ms })));
      })
      .catch((error: unknown) => {
        if (error instanceof RolledBack) return error.pieces;
        throw error;
      });
    expect(derived).toEqual([
      { start: day + 8 * H, end: day + 10.5 * H },
      { start: day + 12 * H, end: day + 13 * H },
      { start: day + 20 * H, end: day + 44 * H },
      { start: day + 44 * H, end: day + 60 * H },
    ]);
    expect(mergeBusy(derived)).toEqual(mergeBusy(written));
  });
});

class RolledBack extends Error {
  constructor(readonly pieces: Interval[]) {
    super('rolled back');
  }
}
