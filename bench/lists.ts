import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { registerCleanup, startChild } from './children.js';
import { DIST_SRC, loadClient, loadMigrate, loadWorkspaces, loadWritePath, serverNodeFlags } from './dist.js';
import { sequentialMedian } from './load.js';
import { API_LINE, childEnv } from './stores.js';

/**
 * Lists at size (issue 18 point 4): one location offering 1,000 services, 1,000 staffers who
 * each provide 5 of them there, 1,000 customers; every list read one request at a time over the
 * built server on PGlite, each request a different page. Bar: p95 <= 20 ms for each list.
 */
export const LIST_ROWS = 1000;
const SERVICES_PER_STAFFER = 5;
export const LIST_P95_BAR_MS = 20;

export interface ListResult {
  name: string;
  median: number;
  p95: number;
  non200: number;
}

export async function seedLists(dataDir: string) {
  const { openDatabase } = await loadClient();
  const { migrate } = await loadMigrate();
  const { createWorkspace } = await loadWorkspaces();
  const { openWritePath } = await loadWritePath();
  const database = await openDatabase({ dataDir, lockOwner: 'bench' });
  try {
    await migrate(database);
    const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
      slug: 'lists',
      name: 'Lists',
    });
    const w = workspace.id;
    const db = database.db;
    // Each row its own millisecond, as rows made one by one through the API would be.
    const { rows } = await sql<{ id: string }>`
      INSERT INTO locations (workspace_id, name, timezone, opening_hours, images)
      VALUES (${w}, 'Lists', 'Europe/Berlin', '{}', '[]') RETURNING id`.execute(db);
    const location = rows[0]!.id;
    await sql`INSERT INTO services (workspace_id, name, price, duration_minutes, created_at)
      SELECT ${w}, 'Service ' || i, 1000, 30, now() + i * interval '1 ms'
        FROM generate_series(1, ${LIST_ROWS}) i`.execute(db);
    await sql`INSERT INTO service_locations (workspace_id, service_id, location_id)
      SELECT ${w}, id, ${location} FROM services WHERE workspace_id = ${w}`.execute(db);
    await sql`INSERT INTO staffers (workspace_id, first_name, created_at)
      SELECT ${w}, 'Staffer ' || i, now() + i * interval '1 ms' FROM generate_series(1, ${LIST_ROWS}) i`.execute(
      db,
    );
    await sql`INSERT INTO staffer_services (workspace_id, staffer_id, location_id, service_id)
      SELECT ${w}, st.id, ${location}, sv.id
        FROM (SELECT id, row_number() OVER (ORDER BY created_at) AS n FROM staffers WHERE workspace_id = ${w}) st
        JOIN (SELECT id, row_number() OVER (ORDER BY created_at) AS n FROM services WHERE workspace_id = ${w}) sv
          ON (sv.n - st.n + ${LIST_ROWS}) % ${LIST_ROWS} < ${SERVICES_PER_STAFFER}`.execute(db);
    await sql`INSERT INTO customers (workspace_id, phone, first_name, created_at)
      SELECT ${w}, '+49151' || lpad(i::text, 8, '0'), 'Customer ' || i, now() + i * interval '1 ms'
        FROM generate_series(1, ${LIST_ROWS}) i`.execute(db);
    return { slug: workspace.slug, apiKey: apiKey.secret, location };
  } finally {
    await database.close();
  }
}

export async function runListsBench(log: (line: string) => void, count = 100): Promise<ListResult[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-bench-lists-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const unregister = registerCleanup(removeDir);
  try {
    const dataDir = path.join(dir, 'data');
    log(`lists (issue 18): seeding ${LIST_ROWS} staffers, services and customers on PGlite`);
    const seeded = await seedLists(dataDir);
    const server = await startChild(
      [...serverNodeFlags(), path.join(DIST_SRC, 'main.js')],
      childEnv({ DATA_DIR: dataDir }),
      API_LINE,
    );
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const headers = { authorization: `Bearer ${seeded.apiKey}`, workspace: seeded.slug };
      const prefix = '/api/public/v2';
      const lastPage = Math.ceil(LIST_ROWS / 15);
      let n = 0;
      // Every request another page, first to last and round again.
      const paged = (base: string) => () =>
        `${base}${base.includes('?') ? '&' : '?'}page=${(n++ % lastPage) + 1}`;
      const lists: [string, string][] = [
        ['GET /locations/{uuid}/staffers', `${prefix}/locations/${seeded.location}/staffers`],
        ['GET /locations/{uuid}/services', `${prefix}/locations/${seeded.location}/services`],
        ['GET /customers', `${prefix}/customers`],
        ['GET /bookings', `${prefix}/bookings`],
        ['GET /webhooks', `${prefix}/webhooks`],
        ['GET /locations', `${prefix}/locations`],
      ];
      const results: ListResult[] = [];
      for (const [name, base] of lists) {
        await sequentialMedian(origin, paged(base), headers, 10); // warm-up
        const measured = await sequentialMedian(origin, paged(base), headers, count);
        const non200 = Object.entries(measured.statuses)
          .filter(([status]) => status !== '200')
          .reduce((sum, [, k]) => sum + k, 0);
        results.push({ name, median: measured.median, p95: measured.p95, non200 });
        log(`  ${name}: median ${measured.median} ms, p95 ${measured.p95} ms, non-200 ${non200}`);
      }
      return results;
    } finally {
      await server.stop();
    }
  } finally {
    removeDir();
    unregister();
  }
}
