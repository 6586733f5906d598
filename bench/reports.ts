import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { registerCleanup, startChild } from './children.js';
import { DIST_SRC, loadClient, loadMigrate, loadWorkspaces, loadWritePath, serverNodeFlags } from './dist.js';
import { sequentialMedian } from './load.js';
import { API_LINE, childEnv, scratchDatabase } from './stores.js';

/**
 * Reports at size (issue 31 point 3): a year of 100,000 bookings with 50 staffers at two
 * locations in two zones, 20,000 customers, four in five bookings paid (on two accounts a
 * location), one in ten canceled or not attended. Every report over the whole year, one request
 * at a time over the built server, beside GET /locations of the API in the same run. Bar: p95 <=
 * 300 ms for each report.
 */
export const REPORT_BOOKINGS = 100_000;
export const REPORT_STAFFERS = 50;
export const REPORT_P95_BAR_MS = 300;
const CUSTOMERS = 20_000;
const YEAR_START = '2025-01-01';
const KINDS = ['revenue', 'sources', 'utilisation', 'cancellations', 'customers', 'lead-time'] as const;

export interface ReportBenchResult {
  store: 'pglite' | 'postgres';
  name: string;
  median: number;
  p95: number;
  non200: number;
}

interface Seeded {
  token: string;
  slug: string;
  apiKey: string;
}

export async function seedReports(options: { dataDir?: string; databaseUrl?: string }): Promise<Seeded> {
  const { openDatabase } = await loadClient();
  const { migrate } = await loadMigrate();
  const { createWorkspace } = await loadWorkspaces();
  const { openWritePath } = await loadWritePath();
  const sessions = (await import(
    pathToFileURL(path.join(DIST_SRC, 'users', 'sessions.service.js')).href
  )) as typeof import('../src/users/sessions.service.js');
  const database = await openDatabase({ ...options, lockOwner: 'bench' });
  try {
    await migrate(database);
    const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
      slug: 'reports',
      name: 'Reports',
    });
    const w = workspace.id;
    const db = database.db;
    const weekdays = JSON.stringify(
      Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat'].map((d) => [d, [{ from: '09:00', to: '18:00' }]]),
      ),
    );
    await sql`INSERT INTO locations (workspace_id, name, timezone, opening_hours, images, created_at)
      VALUES (${w}, 'Berlin', 'Europe/Berlin', ${weekdays}::jsonb, '[]', now()),
             (${w}, 'New York', 'America/New_York', ${weekdays}::jsonb, '[]', now() + interval '1 ms')`.execute(
      db,
    );
    const locations = (
      await sql<{
        id: string;
      }>`SELECT id FROM locations WHERE workspace_id = ${w} ORDER BY created_at`.execute(db)
    ).rows.map((row) => row.id);
    await sql`INSERT INTO payment_accounts (workspace_id, location_id, name, type)
      SELECT ${w}, l.id, a.name, a.type FROM locations l
        CROSS JOIN (VALUES ('Cash', 'cash'), ('Card', 'card')) a(name, type) WHERE l.workspace_id = ${w}`.execute(
      db,
    );
    await sql`INSERT INTO services (workspace_id, name, price, duration_minutes, created_at)
      SELECT ${w}, 'Service ' || i, 2000 + i * 500, 30 + (i % 3) * 15, now() + i * interval '1 ms'
        FROM generate_series(1, 10) i`.execute(db);
    await sql`INSERT INTO service_locations (workspace_id, service_id, location_id)
      SELECT ${w}, s.id, l.id FROM services s CROSS JOIN locations l WHERE s.workspace_id = ${w} AND l.workspace_id = ${w}`.execute(
      db,
    );
    await sql`INSERT INTO staffers (workspace_id, first_name, last_name, created_at)
      SELECT ${w}, 'Staffer', lpad(i::text, 2, '0'), now() + i * interval '1 ms'
        FROM generate_series(1, ${REPORT_STAFFERS}) i`.execute(db);
    // Staffers 1-25 in Berlin, 26-50 in New York.
    await sql`
      WITH st AS (SELECT id, row_number() OVER (ORDER BY created_at) AS n FROM staffers WHERE workspace_id = ${w})
      INSERT INTO schedules (workspace_id, staffer_id, location_id, weekly, breaks, overrides)
      SELECT ${w}, st.id, CASE WHEN st.n <= ${REPORT_STAFFERS / 2} THEN ${locations[0]}::uuid ELSE ${locations[1]}::uuid END,
             ${weekdays}::jsonb, '{}', '[]' FROM st`.execute(db);
    await sql`INSERT INTO customers (workspace_id, phone, first_name, created_at)
      SELECT ${w}, '+49151' || lpad(i::text, 8, '0'), 'Customer ' || i, now() + i * interval '1 ms'
        FROM generate_series(1, ${CUSTOMERS}) i`.execute(db);
    // 100,000 bookings over the year: each staffer one booking an hour from 09:00, six days a
    // week, made 0-40 days ahead, from the booking page (some with a ref), the panel or the API.
    await sql`
      WITH st AS (SELECT id, row_number() OVER (ORDER BY created_at) - 1 AS n FROM staffers WHERE workspace_id = ${w}),
           cu AS (SELECT id, row_number() OVER (ORDER BY created_at) - 1 AS n FROM customers WHERE workspace_id = ${w}),
           status AS (SELECT id FROM booking_statuses WHERE workspace_id = ${w} AND type = 'confirmed' LIMIT 1),
           plan AS (
             SELECT i, i % ${REPORT_STAFFERS} AS staffer_n,
                    ${YEAR_START}::date + ((i / ${REPORT_STAFFERS} / 8) * 7 / 6) * interval '1 day'
                      + interval '8 hours' + ((i / ${REPORT_STAFFERS}) % 8) * interval '1 hour' AS local_start
               FROM generate_series(0, ${REPORT_BOOKINGS - 1}) i)
      INSERT INTO bookings (workspace_id, location_id, staffer_id, customer_id, status_id, start_time, end_time,
                            cancel_reason, canceled_at, source, ref, created_at)
      SELECT ${w}, CASE WHEN st.n < ${REPORT_STAFFERS / 2} THEN ${locations[0]}::uuid ELSE ${locations[1]}::uuid END,
             st.id, cu.id, (SELECT id FROM status),
             plan.local_start AT TIME ZONE 'UTC', plan.local_start AT TIME ZONE 'UTC' + interval '45 minutes',
             CASE WHEN plan.i % 20 = 3 THEN 'canceled' WHEN plan.i % 20 = 7 THEN 'didnt_come' END,
             CASE WHEN plan.i % 20 IN (3, 7) THEN plan.local_start AT TIME ZONE 'UTC' END,
             CASE plan.i % 3 WHEN 0 THEN 'online-booking' WHEN 1 THEN 'panel' ELSE 'api' END,
             CASE WHEN plan.i % 3 = 0 AND plan.i % 4 = 0 THEN 'flyer-' || (plan.i % 5) END,
             plan.local_start AT TIME ZONE 'UTC' - ((plan.i * 7919) % 40) * interval '1 day' - interval '3 hours'
        FROM plan JOIN st ON st.n = plan.staffer_n JOIN cu ON cu.n = plan.i % ${CUSTOMERS}`.execute(db);
    await sql`
      INSERT INTO booking_services (workspace_id, booking_id, service_id, name, price, original_price, duration_minutes)
      SELECT b.workspace_id, b.id, sv.id, sv.name, sv.price, sv.price, 45
        FROM bookings b JOIN LATERAL (
          SELECT id, name, price FROM services WHERE workspace_id = ${w}
          ORDER BY id OFFSET (abs(hashtext(b.id::text)) % 10) LIMIT 1) sv ON true
        WHERE b.workspace_id = ${w}`.execute(db);
    // Four in five kept bookings paid, on the day of the visit, on the location's cash or card.
    await sql`
      INSERT INTO payments (workspace_id, booking_id, payment_account_id, amount, created_at)
      SELECT b.workspace_id, b.id, pa.id, bs.price, b.end_time
        FROM bookings b
        JOIN booking_services bs ON bs.workspace_id = b.workspace_id AND bs.booking_id = b.id
        JOIN LATERAL (SELECT id FROM payment_accounts WHERE workspace_id = ${w} AND location_id = b.location_id
                      ORDER BY id OFFSET (abs(hashtext(b.id::text)) % 2) LIMIT 1) pa ON true
        WHERE b.workspace_id = ${w} AND b.canceled_at IS NULL AND abs(hashtext(b.id::text)) % 5 <> 0`.execute(
      db,
    );
    // As autovacuum leaves tables after a bulk load: statistics, and pages marked all-visible so
    // index-only scans need not visit the rows.
    await sql`VACUUM ANALYZE`.execute(db);
    const user = await db
      .insertInto('users')
      .values({
        email: 'owner@reports.example',
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
    const counted = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM bookings WHERE workspace_id = ${w}`.execute(db);
    if (counted.rows[0]!.n !== REPORT_BOOKINGS) throw new Error(`seeded ${counted.rows[0]!.n} bookings`);
    return { token, slug: workspace.slug, apiKey: apiKey.secret };
  } finally {
    await database.close();
  }
}

/** The six reports over the whole year, and GET /locations, on PGlite and (with a URL) PostgreSQL. */
export async function runReportsBench(
  log: (line: string) => void,
  on: { pglite: boolean; adminUrl: URL | undefined },
  count = 30,
): Promise<ReportBenchResult[]> {
  const { adminUrl } = on;
  const results: ReportBenchResult[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-bench-reports-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const unregister = registerCleanup(removeDir);
  try {
    type Opened = { env: Record<string, string>; done: () => Promise<void>; seeded: Seeded };
    const stores: { store: 'pglite' | 'postgres'; open: () => Promise<Opened> }[] = [];
    if (on.pglite)
      stores.push({
        store: 'pglite',
        open: async () => {
          const dataDir = path.join(dir, 'data');
          const seeded = await seedReports({ dataDir });
          return { env: { DATA_DIR: dataDir }, done: async () => {}, seeded };
        },
      });
    if (adminUrl)
      stores.push({
        store: 'postgres',
        open: async () => {
          const scratch = await scratchDatabase(adminUrl, 'bench_reports');
          const seeded = await seedReports({ databaseUrl: scratch.databaseUrl });
          return { env: { DATABASE_URL: scratch.databaseUrl }, done: scratch.drop, seeded };
        },
      });
    for (const { store, open } of stores) {
      log(
        `reports (issue 31): seeding ${REPORT_BOOKINGS} bookings of a year, ${REPORT_STAFFERS} staffers, on ${store}`,
      );
      const started = performance.now();
      const opened = await open();
      log(`  seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      try {
        const seededToken = opened.seeded;
        const server = await startChild(
          [...serverNodeFlags(), path.join(DIST_SRC, 'main.js')],
          childEnv(opened.env),
          API_LINE,
        );
        try {
          const origin = `http://127.0.0.1:${server.port}`;
          const panel = { cookie: `kairos_session=${seededToken.token}` };
          const api = { authorization: `Bearer ${seededToken.apiKey}`, workspace: seededToken.slug };
          const measure = async (name: string, url: string, headers: Record<string, string>) => {
            // The first request of a report finds the year's days not rolled up yet (the seed
            // writes by SQL) and recomputes them: timed apart, not in the figures.
            const firstStarted = performance.now();
            const first = await fetch(`${origin}${url}`, { headers });
            const body = await first.text();
            if (first.status !== 200)
              throw new Error(`${name} answered ${first.status}: ${body.slice(0, 300)}`);
            log(`  ${store} ${name}: first request ${(performance.now() - firstStarted).toFixed(0)} ms`);
            await sequentialMedian(origin, url, headers, 3); // warm-up
            const measured = await sequentialMedian(origin, url, headers, count);
            const non200 = Object.entries(measured.statuses)
              .filter(([status]) => status !== '200')
              .reduce((sum, [, k]) => sum + k, 0);
            results.push({ store, name, median: measured.median, p95: measured.p95, non200 });
            log(
              `  ${store} ${name}: median ${measured.median} ms, p95 ${measured.p95} ms, non-200 ${non200}`,
            );
          };
          await measure('GET /locations', '/api/public/v2/locations', api);
          for (const kind of KINDS)
            await measure(
              `report ${kind}`,
              `/panel/reports/${kind}?from=2025-01-01&to=2025-12-31&group=month`,
              panel,
            );
        } finally {
          await server.stop();
        }
      } finally {
        await opened.done();
      }
    }
    return results;
  } finally {
    removeDir();
    unregister();
  }
}
