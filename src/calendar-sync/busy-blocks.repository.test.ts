import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingFixture } from '../../test/helpers/booking-fixture.js';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { projectRoot } from '../platform/db/project-root.js';
import { openWritePath } from '../write-path.js';
import { rebuildBusyBlocks, replaceSpans, type SpanValues } from './calendar-sync.repository.js';

/**
 * The slot read's busy blocks: what a sync writes (rebuildBusyBlocks) and what the migration
 * derives from spans stored before it (its INSERT … SELECT) are the same union, and the
 * time-slots answer is the same with the blocks as it was with every event.
 */
let t: TestApp;
let f: Awaited<ReturnType<typeof bookingFixture>>;
const H = 3_600_000;
const day = Date.parse('2026-09-10T00:00:00Z');
const href = (n: number) => `https://cal.example/a/${n}.ics`;

beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-09-01T08:00:00Z') });
  f = await bookingFixture(t);
  await t.db
    .insertInto('calendar_connections')
    .values({
      workspace_id: t.workspace.id,
      staffer_id: f.anna.id,
      server_url: 'https://cal.example/',
      username: 'anna',
      password_sealed: 'v1.x.y.z',
      next_sync_at: new Date('2026-09-01T08:00:00Z'),
    })
    .execute();
  await t.db
    .insertInto('calendar_objects')
    .values(
      [1, 2, 3, 4, 5].map((n) => ({
        workspace_id: t.workspace.id,
        staffer_id: f.anna.id,
        href: href(n),
        calendar_url: 'https://cal.example/a/',
        etag: `"${n}"`,
        ics: '',
      })),
    )
    .execute();
});
afterAll(() => t.close());

// Berlin is UTC+2: 07:00Z is 09:00 local. Overlapping, touching, nested, apart, and a 50-hour holiday.
const spans: SpanValues[] = [
  { href: href(1), start: day + 8 * H, end: day + 9.5 * H, allDay: false, title: 'A' },
  { href: href(2), start: day + 9 * H, end: day + 10 * H, allDay: false, title: 'B' },
  { href: href(3), start: day + 10 * H, end: day + 10.5 * H, allDay: false, title: 'C' },
  { href: href(4), start: day + 8.5 * H, end: day + 9 * H, allDay: false, title: 'D' },
  { href: href(5), start: day + 30 * H, end: day + 80 * H, allDay: true, title: 'Holiday' },
];

const blocks = () =>
  t.db
    .selectFrom('calendar_busy_blocks')
    .select(['start_ms', 'end_ms'])
    .where('workspace_id', '=', t.workspace.id)
    .where('staffer_id', '=', f.anna.id)
    .orderBy('start_ms')
    .execute();

describe('busy blocks', () => {
  it('a sync stores the union of the spans, in pieces of a day at most', async () => {
    await openWritePath(t.db).uow.run(t.workspace.id, async (tx) => {
      await replaceSpans(
        tx,
        t.workspace.id,
        f.anna.id,
        spans.map((s) => s.href),
        spans,
      );
      await rebuildBusyBlocks(tx, t.workspace.id, f.anna.id);
    });
    expect(await blocks()).toEqual([
      { start_ms: day + 8 * H, end_ms: day + 10.5 * H },
      { start_ms: day + 30 * H, end_ms: day + 54 * H },
      { start_ms: day + 54 * H, end_ms: day + 78 * H },
      { start_ms: day + 78 * H, end_ms: day + 80 * H },
    ]);
  });

  it("the migration's backfill derives the same blocks from the same spans", async () => {
    const migration = readFileSync(
      path.join(projectRoot(), 'migrations', '0037_calendar_busy_blocks.sql'),
      'utf8',
    );
    const backfill = migration.slice(migration.indexOf('INSERT INTO calendar_busy_blocks'));
    const written = await blocks();
    await t.db.deleteFrom('calendar_busy_blocks').where('workspace_id', '=', t.workspace.id).execute();
    await sql.raw(backfill).execute(t.db);
    expect(await blocks()).toEqual(written);
  });

  it('time-slots are what every single event would leave free', async () => {
    const answer = await t.call(
      'GET',
      `/locations/${f.location.id}/time-slots?service_uuid=${f.color.id}&staffer_uuid=${f.anna.id}&range_start=2026-09-10&range_end=2026-09-12`,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const starts = (date: string) =>
      answer
        .json()
        .dates.find((d: { date: string }) => d.date === date)
        .slots.map((s: { start: string }) => s.start);
    // 09:00-17:00 local; busy 10:00-12:30 local (08:00-10:30Z): the 30-minute color fits before
    // 09:30 and from 12:30 on.
    const tenth = starts('2026-09-10');
    expect(tenth.slice(0, 4)).toEqual(['09:00', '09:15', '09:30', '12:30']);
    // The holiday runs from 08:00 local on the 11th to 10:00 local on the 13th: nothing between.
    expect(starts('2026-09-11')).toEqual([]);
    expect(starts('2026-09-12')).toEqual([]);
  });
});
