import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { cpuTimeMs, registerCleanup, startChild } from './children.js';
import {
  DIST_SRC,
  loadClient,
  loadMigrate,
  loadWorkspaces,
  loadWritePath,
  ROOT,
  serverNodeFlags,
} from './dist.js';
import { sequentialMedian } from './load.js';
import { API_LINE, childEnv } from './stores.js';

/**
 * The panel's week view at size (issue 13 §6): one location with 20 staffers and 1,000 bookings
 * in one week, the whole week of everyone rendered on the server, one request at a time over the
 * built server on PGlite. Bar: p95 <= 50 ms; the server's CPU per request is recorded. Also the
 * calendar island's JavaScript, gzipped (bar: <= 30 kB).
 */
export const CALENDAR_STAFFERS = 20;
export const CALENDAR_BOOKINGS = 1000;
export const CALENDAR_P95_BAR_MS = 50;
export const CALENDAR_ISLAND_BAR_BYTES = 30 * 1024;
const WEEK_MONDAY = '2026-03-23';

export interface CalendarResult {
  median: number;
  p95: number;
  cpuMsPerRequest: number | undefined;
  pageBytes: number;
  pageGzipBytes: number;
  islandGzipBytes: number;
  non200: number;
}

export async function seedCalendar(dataDir: string) {
  const { openDatabase } = await loadClient();
  const { migrate } = await loadMigrate();
  const { createWorkspace } = await loadWorkspaces();
  const { openWritePath } = await loadWritePath();
  const sessions = (await import(
    pathToFileURL(path.join(DIST_SRC, 'users', 'sessions.service.js')).href
  )) as typeof import('../src/users/sessions.service.js');
  const database = await openDatabase({ dataDir, lockOwner: 'bench' });
  try {
    await migrate(database);
    const { workspace } = await createWorkspace(openWritePath(database.db).uow, {
      slug: 'calendar',
      name: 'Calendar',
    });
    const w = workspace.id;
    const db = database.db;
    const everyDay = JSON.stringify(
      Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '08:00', to: '20:00' }]]),
      ),
    );
    const lunch = JSON.stringify(
      Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ from: '12:30', to: '13:00' }]]),
      ),
    );
    const { rows } = await sql<{ id: string }>`
      INSERT INTO locations (workspace_id, name, timezone, opening_hours, images)
      VALUES (${w}, 'Mitte', 'Europe/Berlin', ${everyDay}::jsonb, '[]') RETURNING id`.execute(db);
    const location = rows[0]!.id;
    await sql`INSERT INTO services (workspace_id, name, price, duration_minutes)
      SELECT ${w}, 'Service ' || i, 4000, 30 FROM generate_series(1, 3) i`.execute(db);
    await sql`INSERT INTO service_locations (workspace_id, service_id, location_id)
      SELECT ${w}, id, ${location} FROM services WHERE workspace_id = ${w}`.execute(db);
    await sql`INSERT INTO staffers (workspace_id, first_name, last_name, created_at)
      SELECT ${w}, 'Staffer', lpad(i::text, 2, '0'), now() + i * interval '1 ms'
        FROM generate_series(1, ${CALENDAR_STAFFERS}) i`.execute(db);
    await sql`INSERT INTO staffer_services (workspace_id, staffer_id, location_id, service_id)
      SELECT ${w}, st.id, ${location}, sv.id FROM staffers st CROSS JOIN services sv
        WHERE st.workspace_id = ${w} AND sv.workspace_id = ${w}`.execute(db);
    await sql`INSERT INTO schedules (workspace_id, staffer_id, location_id, weekly, breaks, overrides)
      SELECT ${w}, id, ${location}, ${everyDay}::jsonb, ${lunch}::jsonb, '[]' FROM staffers
        WHERE workspace_id = ${w}`.execute(db);
    await sql`INSERT INTO customers (workspace_id, phone, first_name, last_name, created_at)
      SELECT ${w}, '+49151' || lpad(i::text, 8, '0'), 'Customer', i::text, now() + i * interval '1 ms'
        FROM generate_series(1, ${CALENDAR_BOOKINGS}) i`.execute(db);
    // 1,000 bookings: per staffer 50, i.e. 7-8 a day from 08:00 on the hour (Berlin, UTC+1 that week).
    await sql`
      WITH st AS (SELECT id, row_number() OVER (ORDER BY created_at) - 1 AS n FROM staffers WHERE workspace_id = ${w}),
           cu AS (SELECT id, row_number() OVER (ORDER BY created_at) - 1 AS n FROM customers WHERE workspace_id = ${w}),
           status AS (SELECT id FROM booking_statuses WHERE workspace_id = ${w} AND type = 'confirmed' LIMIT 1),
           plan AS (
             SELECT i, (i % ${CALENDAR_STAFFERS}) AS staffer_n,
                    (${WEEK_MONDAY}::date + ((i / ${CALENDAR_STAFFERS}) % 7) * interval '1 day'
                      + interval '7 hours' + ((i / ${CALENDAR_STAFFERS} / 7) % 12) * interval '1 hour') AT TIME ZONE 'UTC' AS start_at
               FROM generate_series(0, ${CALENDAR_BOOKINGS - 1}) i)
      INSERT INTO bookings (workspace_id, location_id, staffer_id, customer_id, status_id, start_time, end_time)
      SELECT ${w}, ${location}, st.id, cu.id, (SELECT id FROM status), plan.start_at, plan.start_at + interval '45 minutes'
        FROM plan JOIN st ON st.n = plan.staffer_n JOIN cu ON cu.n = plan.i`.execute(db);
    await sql`
      INSERT INTO booking_services (workspace_id, booking_id, service_id, name, price, original_price, duration_minutes)
      SELECT b.workspace_id, b.id, sv.id, sv.name, sv.price, sv.price, 45
        FROM bookings b CROSS JOIN LATERAL (
          SELECT id, name, price FROM services WHERE workspace_id = ${w} ORDER BY id LIMIT 1) sv
        WHERE b.workspace_id = ${w}`.execute(db);
    const user = await db
      .insertInto('users')
      .values({
        email: 'owner@calendar.example',
        name: 'Owner',
        password_hash: 'bench: signs in by session only',
        must_change_password: false,
        created_at: new Date(),
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('memberships')
      .values({ workspace_id: w, user_id: user.id, role: 'owner', created_at: new Date() })
      .execute();
    const token = await sessions.startSession(db, user.id, w, Date.now());
    const counted = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM bookings WHERE workspace_id = ${w}`.execute(db);
    if (counted.rows[0]!.n !== CALENDAR_BOOKINGS) throw new Error(`seeded ${counted.rows[0]!.n} bookings`);
    return { location, token };
  } finally {
    await database.close();
  }
}

export async function runCalendarBench(log: (line: string) => void, count = 100): Promise<CalendarResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-bench-calendar-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const unregister = registerCleanup(removeDir);
  try {
    const dataDir = path.join(dir, 'data');
    log(
      `calendar (issue 13): seeding ${CALENDAR_STAFFERS} staffers and ${CALENDAR_BOOKINGS} bookings in one week on PGlite`,
    );
    const seeded = await seedCalendar(dataDir);
    const server = await startChild(
      [...serverNodeFlags(), path.join(DIST_SRC, 'main.js')],
      childEnv({ DATA_DIR: dataDir }),
      API_LINE,
    );
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const headers = { cookie: `kairos_session=${seeded.token}` };
      const url = `/panel/calendar?location=${seeded.location}&view=week&date=${WEEK_MONDAY}&staffer=all`;
      const first = await fetch(`${origin}${url}`, { headers });
      const body = await first.text();
      if (first.status !== 200) throw new Error(`week view answered ${first.status}: ${body.slice(0, 300)}`);
      const blocks = body.match(/class="blk /g)?.length ?? 0;
      if (blocks !== CALENDAR_BOOKINGS) throw new Error(`week view shows ${blocks} bookings`);
      await sequentialMedian(origin, url, headers, 10); // warm-up
      const cpuBefore = cpuTimeMs(server.pid);
      const measured = await sequentialMedian(origin, url, headers, count);
      const cpuAfter = cpuTimeMs(server.pid);
      const non200 = Object.entries(measured.statuses)
        .filter(([status]) => status !== '200')
        .reduce((sum, [, k]) => sum + k, 0);
      const island = readFileSync(path.join(ROOT, 'dist', 'public', 'islands', 'calendar.js'));
      const result: CalendarResult = {
        median: measured.median,
        p95: measured.p95,
        cpuMsPerRequest:
          cpuBefore !== undefined && cpuAfter !== undefined ? (cpuAfter - cpuBefore) / count : undefined,
        pageBytes: Buffer.byteLength(body),
        pageGzipBytes: gzipSync(body).length,
        islandGzipBytes: gzipSync(island).length,
        non200,
      };
      log(
        `  week view, ${CALENDAR_STAFFERS} staffers x ${CALENDAR_BOOKINGS} bookings: median ${result.median} ms, p95 ${result.p95} ms (bar ${CALENDAR_P95_BAR_MS}), server CPU ${result.cpuMsPerRequest?.toFixed(1) ?? '?'} ms/request, non-200 ${non200}`,
      );
      log(
        `  page ${(result.pageBytes / 1024).toFixed(0)} kB (${(result.pageGzipBytes / 1024).toFixed(1)} kB gzipped); calendar island ${(result.islandGzipBytes / 1024).toFixed(1)} kB gzipped (bar 30 kB)`,
      );
      return result;
    } finally {
      await server.stop();
    }
  } finally {
    removeDir();
    unregister();
  }
}
