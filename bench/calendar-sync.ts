/**
 * Calendar sync at size (issue 28 §8): one staffer's calendar of 20,000 events over five years
 * (18,000 single events, 2,000 recurring ones: daily and weekly series with EXDATEs), served by
 * a CalDAV stand-in (bench/caldav-stand-in.ts: Radicale needs a quarter of an hour to parse
 * 20,000 objects once, which would measure Radicale). Measured in-process
 * on PGlite with the built code (dist/):
 * - the first sync (discovery is not in it: the connection is made with the calendar chosen);
 * - an incremental sync after 20 events changed and 10 deleted outside (sync-collection);
 * - the 31-day time-slots answer for the connected staffer against the same answer for a twin
 *   staffer without a calendar (same schedule, same services), alternated in one run, medians
 *   compared. Bar: within 10%.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startCaldavStandIn } from './caldav-stand-in.js';
import { DIST_SRC, loadClient, loadMigrate, loadWorkspaces, loadWritePath } from './dist.js';

export const CALENDAR_SYNC_EVENTS = 20_000;
export const CALENDAR_SYNC_RECURRING = 2_000;
export const SLOTS_RATIO_BAR = 1.1;

export interface CalendarSyncResult {
  events: number;
  firstSyncMs: number;
  incrementalSyncMs: number;
  busySpans: number;
  slotsWithMs: number;
  slotsWithoutMs: number;
  ratio: number;
}

const fromDist = async <T>(relative: string): Promise<T> =>
  (await import(pathToFileURL(path.join(DIST_SRC, relative)).href)) as T;

const pad = (n: number) => String(n).padStart(2, '0');
function stamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00`;
}

/** A deterministic event: i picks the day (over five years around now), hour and kind. */
function eventIcs(i: number, base: number, variant = 0): string {
  const day = (i * 7919) % (5 * 365);
  const start = base - 2 * 365 * 86_400_000 + day * 86_400_000 + (8 + ((i + variant) % 10)) * 3_600_000;
  const zone = i % 3 === 0 ? 'America/New_York' : 'Europe/Berlin';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//kairos bench//EN',
    'BEGIN:VEVENT',
    `UID:bench-${i}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART;TZID=${zone}:${stamp(start)}`,
    `DTEND;TZID=${zone}:${stamp(start + (30 + (i % 4) * 15) * 60_000)}`,
    `SUMMARY:Event ${i}`,
  ];
  if (i < CALENDAR_SYNC_RECURRING) {
    lines.push(
      i % 2 === 0 ? `RRULE:FREQ=WEEKLY;COUNT=${10 + (i % 40)}` : `RRULE:FREQ=DAILY;COUNT=${5 + (i % 20)}`,
    );
    lines.push(`EXDATE;TZID=${zone}:${stamp(start + (i % 2 === 0 ? 7 : 1) * 86_400_000)}`);
  }
  lines.push('END:VEVENT', 'END:VCALENDAR', '');
  return lines.join('\r\n');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function runCalendarSyncBench(log: (line: string) => void): Promise<CalendarSyncResult> {
  log(
    `calendar sync: ${CALENDAR_SYNC_EVENTS.toLocaleString('en')} events (${CALENDAR_SYNC_RECURRING} recurring) over five years (issue 28)`,
  );
  const { openDatabase } = await loadClient();
  const { migrate } = await loadMigrate();
  const { createWorkspace } = await loadWorkspaces();
  const { openWritePath } = await loadWritePath();
  const sync = await fromDist<typeof import('../src/calendar-sync/calendar-sync.service.js')>(
    'calendar-sync/calendar-sync.service.js',
  );
  const slots = await fromDist<typeof import('../src/slots/slots.service.js')>('slots/slots.service.js');
  const locations = await fromDist<typeof import('../src/locations/locations.repository.js')>(
    'locations/locations.repository.js',
  );
  const workspaces = await fromDist<typeof import('../src/workspaces/workspaces.repository.js')>(
    'workspaces/workspaces.repository.js',
  );

  const server = await startCaldavStandIn();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kairos-bench-calsync-'));
  const database = await openDatabase({ dataDir, lockOwner: 'bench' });
  try {
    const calendarUrl = server.calendarUrl;
    const now = Date.parse('2026-09-01T06:00:00Z');
    for (let i = 0; i < CALENDAR_SYNC_EVENTS; i++) server.put(`e${i}.ics`, eventIcs(i, now));

    await migrate(database);
    const db = database.db;
    const { uow } = openWritePath(db);
    const { workspace } = await createWorkspace(uow, { slug: 'calsync', name: 'Calendar sync' });
    const w = workspace.id;
    await db.updateTable('workspaces').set({ horizon_days: 90 }).where('id', '=', w).execute();
    const location = await db
      .insertInto('locations')
      .values({ workspace_id: w, name: 'Mitte', timezone: 'Europe/Berlin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const service = await db
      .insertInto('services')
      .values({ workspace_id: w, name: 'Cut', duration_minutes: 30, price: 1000 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('service_locations')
      .values({ workspace_id: w, service_id: service.id, location_id: location.id })
      .execute();
    const weekly = JSON.stringify(
      Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '08:00', to: '20:00' }]]),
      ),
    );
    const staffer = async (name: string) => {
      const row = await db
        .insertInto('staffers')
        .values({ workspace_id: w, first_name: name, last_name: '', avatar: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('staffer_services')
        .values({ workspace_id: w, staffer_id: row.id, location_id: location.id, service_id: service.id })
        .execute();
      await db
        .insertInto('schedules')
        .values({
          workspace_id: w,
          staffer_id: row.id,
          location_id: location.id,
          weekly,
          breaks: '{}',
          overrides: '[]',
        })
        .execute();
      return row.id;
    };
    const connected = await staffer('Anna');
    const twin = await staffer('Ben');

    const clock = { now: () => now };
    const deps = {
      db,
      uow,
      clock,
      config: {
        secretKey: 'bench-calendar-sync-key-0123456789abcdef',
        webhooksAllowPrivate: true,
        databaseUrl: undefined,
        dataDir,
      },
      calendarTimeoutMs: 300_000,
    };
    const box = (
      await fromDist<typeof import('../src/platform/secrets.js')>('platform/secrets.js')
    ).secretBoxOf(deps.config);
    await db
      .insertInto('calendar_connections')
      .values({
        workspace_id: w,
        staffer_id: connected,
        server_url: server.url,
        username: 'anna',
        password_sealed: box.seal('bench', sync.credentialsContext(w, connected)),
        read_calendars: JSON.stringify([calendarUrl]),
        write_calendar: null,
        next_sync_at: new Date(now),
      })
      .execute();

    let t0 = performance.now();
    const first = await sync.syncCalendar(deps, w, connected);
    const firstSyncMs = performance.now() - t0;
    if (!first.ok || first.changed !== CALENDAR_SYNC_EVENTS)
      throw new Error(`first sync: ${JSON.stringify(first)}`);
    const spanCount = await db
      .selectFrom('calendar_busy_spans')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', w)
      .executeTakeFirstOrThrow();
    const blockCount = await db
      .selectFrom('calendar_busy_blocks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', w)
      .executeTakeFirstOrThrow();
    log(
      `  first sync: ${(firstSyncMs / 1000).toFixed(1)} s (${first.changed} objects, ${Number(spanCount.n)} busy spans in the 90-day window, merged into ${Number(blockCount.n)} blocks)`,
    );

    for (let i = 0; i < 20; i++) server.put(`e${100 + i}.ics`, eventIcs(100 + i, now, 1));
    for (let i = 0; i < 10; i++) server.remove(`e${500 + i}.ics`);
    t0 = performance.now();
    const second = await sync.syncCalendar(deps, w, connected);
    const incrementalSyncMs = performance.now() - t0;
    if (!second.ok || second.changed !== 20 || second.removed !== 10)
      throw new Error(`incremental sync: ${JSON.stringify(second)}`);
    log(`  incremental sync (20 changed, 10 deleted): ${incrementalSyncMs.toFixed(0)} ms`);

    const ws = await workspaces.findWorkspaceById(db, w);
    const loc = await locations.requireLocation(db, w, location.id);
    const ask = (stafferId: string) =>
      slots.timeSlots(
        db,
        ws!,
        loc,
        {
          service_uuid: service.id,
          staffer_uuid: stafferId,
          range_start: '2026-09-01',
          range_end: '2026-10-01',
        },
        now,
      );
    const withCal: number[] = [];
    const without: number[] = [];
    for (let i = 0; i < 10; i++) {
      await ask(connected);
      await ask(twin);
    }
    for (let i = 0; i < 60; i++) {
      t0 = performance.now();
      await ask(connected);
      withCal.push(performance.now() - t0);
      t0 = performance.now();
      await ask(twin);
      without.push(performance.now() - t0);
    }
    const repo =
      await fromDist<typeof import('../src/slots/slots.repository.js')>('slots/slots.repository.js');
    const load = (stafferId: string) =>
      repo.loadStafferInputs(db, {
        workspaceId: w,
        locationId: location.id,
        serviceIds: [service.id],
        stafferId,
        from: Date.parse('2026-08-31T22:00:00Z'),
        to: Date.parse('2026-10-01T22:00:00Z'),
      });
    const loadWith: number[] = [];
    const loadWithout: number[] = [];
    for (let i = 0; i < 40; i++) {
      t0 = performance.now();
      await load(connected);
      loadWith.push(performance.now() - t0);
      t0 = performance.now();
      await load(twin);
      loadWithout.push(performance.now() - t0);
    }
    log(
      `  of which the store read: ${median(loadWith).toFixed(2)} ms with, ${median(loadWithout).toFixed(2)} ms without`,
    );
    const slotsWithMs = median(withCal);
    const slotsWithoutMs = median(without);
    const ratio = slotsWithMs / slotsWithoutMs;
    log(
      `  time-slots 31 days, one staffer: ${slotsWithMs.toFixed(2)} ms with the calendar, ${slotsWithoutMs.toFixed(2)} ms without (ratio ${ratio.toFixed(2)}, bar <= ${SLOTS_RATIO_BAR})`,
    );
    return {
      events: CALENDAR_SYNC_EVENTS,
      firstSyncMs,
      incrementalSyncMs,
      busySpans: Number(spanCount.n),
      slotsWithMs,
      slotsWithoutMs,
      ratio,
    };
  } finally {
    await database.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
