/**
 * Resources at size (issue 29 §7): a location with 20 staffers and 10 rooms, 5,000 booked
 * sessions over 50 days (each an occupancy of its staffer holding one room, as a create writes
 * them), and the 31-day time-slots answer for a service that needs a room against the same
 * answer for a twin service that needs none (same length, same staffers, same bookings),
 * alternated in one run, medians compared. Bar: within 20%. In-process on PGlite with the
 * built code (dist/), like BENCH_ONLY=calendar-sync.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { DIST_SRC, loadClient, loadMigrate, loadWorkspaces, loadWritePath, ROOT } from './dist.js';

export const RESOURCES_STAFFERS = 20;
export const RESOURCES_ROOMS = 10;
export const RESOURCES_BOOKINGS = 5_000;
export const RESOURCES_RATIO_BAR = 1.2;

export interface ResourcesBenchResult {
  withMs: number;
  withoutMs: number;
  ratio: number;
  slotsWith: number;
  slotsWithout: number;
}

const fromDist = async <T>(relative: string): Promise<T> =>
  (await import(pathToFileURL(path.join(DIST_SRC, relative)).href)) as T;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function runResourcesBench(log: (line: string) => void): Promise<ResourcesBenchResult> {
  log(
    `resources: ${RESOURCES_STAFFERS} staffers, ${RESOURCES_ROOMS} rooms, ${RESOURCES_BOOKINGS.toLocaleString('en')} bookings (issue 29)`,
  );
  const { openDatabase } = await loadClient();
  const { migrate } = await loadMigrate();
  const { createWorkspace } = await loadWorkspaces();
  const { openWritePath } = await loadWritePath();
  const slots = await fromDist<typeof import('../src/slots/slots.service.js')>('slots/slots.service.js');
  const locations = await fromDist<typeof import('../src/locations/locations.repository.js')>(
    'locations/locations.repository.js',
  );
  const workspaces = await fromDist<typeof import('../src/workspaces/workspaces.repository.js')>(
    'workspaces/workspaces.repository.js',
  );

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kairos-bench-resources-'));
  const database = await openDatabase({ dataDir, lockOwner: 'bench' });
  try {
    const now = Date.parse('2026-09-01T04:00:00Z');
    await migrate(database);
    const db = database.db;
    const { uow } = openWritePath(db);
    const { workspace } = await createWorkspace(uow, { slug: 'resources', name: 'Resources' });
    const w = workspace.id;
    await db.updateTable('workspaces').set({ horizon_days: 90 }).where('id', '=', w).execute();
    const location = await db
      .insertInto('locations')
      .values({ workspace_id: w, name: 'Spa', timezone: 'Europe/Berlin' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rooms: string[] = [];
    for (let r = 0; r < RESOURCES_ROOMS; r++) {
      const row = await db
        .insertInto('resources')
        .values({ workspace_id: w, location_id: location.id, type: 'room', name: `Room ${r + 1}` })
        .returning('id')
        .executeTakeFirstOrThrow();
      rooms.push(row.id);
    }
    const service = async (name: string, requirements: unknown[]) => {
      const row = await db
        .insertInto('services')
        .values({
          workspace_id: w,
          name,
          duration_minutes: 60,
          price: 5000,
          resource_requirements: JSON.stringify(requirements),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('service_locations')
        .values({ workspace_id: w, service_id: row.id, location_id: location.id })
        .execute();
      return row.id;
    };
    const withRoom = await service('Massage', [{ type: 'room', units: 1, resource_id: null }]);
    const plain = await service('Massage, no room', []);
    const weekly = JSON.stringify(
      Object.fromEntries(
        ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, [{ from: '08:00', to: '20:00' }]]),
      ),
    );
    const staffers: string[] = [];
    for (let s = 0; s < RESOURCES_STAFFERS; s++) {
      const row = await db
        .insertInto('staffers')
        .values({ workspace_id: w, first_name: `S${s}`, last_name: '', avatar: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('staffer_services')
        .values(
          [withRoom, plain].map((id) => ({
            workspace_id: w,
            staffer_id: row.id,
            location_id: location.id,
            service_id: id,
          })),
        )
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
      staffers.push(row.id);
    }
    // 100 sessions a day over 50 days: ten an hour from 08:00 Berlin (06:00 UTC in September),
    // each a different staffer and room, so neither constraint is broken.
    const first = Date.parse('2026-09-01T06:00:00Z');
    for (let batch = 0; batch < RESOURCES_BOOKINGS; batch += 500) {
      const sessions = Array.from({ length: Math.min(500, RESOURCES_BOOKINGS - batch) }, (_, i) => {
        const k = batch + i;
        const day = Math.floor(k / 100);
        const j = k % 100;
        const start = first + day * 86_400_000 + Math.floor(j / 10) * 3_600_000;
        return {
          staffer: staffers[(j % 10) + 10 * (day % 2)]!,
          room: rooms[j % 10]!,
          start,
        };
      });
      const ids = await db
        .insertInto('occupancies')
        .values(
          sessions.map((s) => ({
            workspace_id: w,
            staffer_id: s.staffer,
            location_id: location.id,
            service_id: withRoom,
            service_start: new Date(s.start),
            span: sql<string>`tstzrange(${new Date(s.start)}::timestamptz, ${new Date(s.start + 3_600_000)}::timestamptz)`,
            capacity: 1,
            seats_taken: 1,
          })),
        )
        .returning(['id', 'span'])
        .execute();
      await db
        .insertInto('resource_occupancies')
        .values(
          ids.map((row, i) => ({
            workspace_id: w,
            occupancy_id: row.id,
            resource_id: sessions[i]!.room,
            span: row.span,
            start_ms: sessions[i]!.start,
            end_ms: sessions[i]!.start + 3_600_000,
          })),
        )
        .execute();
    }

    // The holds were written by hand, past the repository that keeps each unit's busy pieces:
    // derive the pieces from them as migration 0041 does for holds stored before it.
    const migration = readFileSync(path.join(ROOT, 'migrations', '0041_resource_busy_blocks.sql'), 'utf8');
    await sql.raw(migration.slice(migration.indexOf('INSERT INTO resource_busy_blocks'))).execute(db);
    // A running store analyzes tables changed this much within seconds (pglite-maintenance.ts);
    // the bench loaded them by hand, so it does once what the store would.
    await sql`ANALYZE`.execute(db);
    const ws = await workspaces.findWorkspaceById(db, w);
    const loc = await locations.requireLocation(db, w, location.id);
    const ask = (serviceId: string) =>
      slots.timeSlots(
        db,
        ws!,
        loc,
        { service_uuid: serviceId, range_start: '2026-09-01', range_end: '2026-10-01' },
        now,
      );
    const count = (answer: Awaited<ReturnType<typeof ask>>) =>
      answer.dates.reduce((sum, day) => sum + day.slots.length, 0);
    const slotsWith = count(await ask(withRoom));
    const slotsWithout = count(await ask(plain));
    for (let i = 0; i < 10; i++) {
      await ask(withRoom);
      await ask(plain);
    }
    const withTimes: number[] = [];
    const withoutTimes: number[] = [];
    for (let i = 0; i < 60; i++) {
      let t0 = performance.now();
      await ask(withRoom);
      withTimes.push(performance.now() - t0);
      t0 = performance.now();
      await ask(plain);
      withoutTimes.push(performance.now() - t0);
    }
    if (process.env.BENCH_RESOURCES_PROFILE === '1') {
      const repo = await fromDist<typeof import('../src/resources/resource-occupancies.repository.js')>(
        'resources/resource-occupancies.repository.js',
      );
      const times: number[] = [];
      for (let i = 0; i < 40; i++) {
        const t0 = performance.now();
        await repo.loadResourceNeeds(db, {
          workspaceId: w,
          locationId: location.id,
          requirements: [{ type: 'room', units: 1, resource_id: null }],
          capacity: 1,
          from: Date.parse('2026-08-31T22:00:00Z'),
          to: Date.parse('2026-10-01T22:00:00Z'),
        });
        times.push(performance.now() - t0);
      }
      log(`  of which the rooms' read: ${median(times).toFixed(2)} ms`);
      const engine = await fromDist<typeof import('../src/slots/engine/compute-slots.js')>(
        'slots/engine/compute-slots.js',
      );
      const repoS =
        await fromDist<typeof import('../src/slots/slots.repository.js')>('slots/slots.repository.js');
      for (const id of [withRoom, plain]) {
        const offered = (await repoS.loadOfferedServices(db, w, location.id, [id])).get(id)!;
        const input = await slots.loadAvailability(db, {
          workspace: ws!,
          location: loc,
          service: offered,
          from: Date.parse('2026-08-31T22:00:00Z'),
          to: Date.parse('2026-10-01T22:00:00Z'),
          now,
        });
        const q = {
          ...input,
          answerZone: 'Europe/Berlin',
          priceFormatted: '',
          rangeStart: '2026-09-01',
          rangeEnd: '2026-10-01',
        };
        const et: number[] = [];
        const lt: number[] = [];
        for (let i = 0; i < 30; i++) {
          let t0 = performance.now();
          engine.computeSlots(q);
          et.push(performance.now() - t0);
          t0 = performance.now();
          await slots.loadAvailability(db, {
            workspace: ws!,
            location: loc,
            service: offered,
            from: Date.parse('2026-08-31T22:00:00Z'),
            to: Date.parse('2026-10-01T22:00:00Z'),
            now,
          });
          lt.push(performance.now() - t0);
        }
        log(
          `  ${id === withRoom ? 'room' : 'none'}: engine ${median(et).toFixed(2)} ms, load ${median(lt).toFixed(2)} ms`,
        );
      }
    }
    const withMs = median(withTimes);
    const withoutMs = median(withoutTimes);
    const ratio = withMs / withoutMs;
    log(
      `  time-slots 31 days, all staffers: ${withMs.toFixed(2)} ms needing a room (${slotsWith} slots), ${withoutMs.toFixed(2)} ms needing none (${slotsWithout} slots); ratio ${ratio.toFixed(2)}, bar <= ${RESOURCES_RATIO_BAR}`,
    );
    return { withMs, withoutMs, ratio, slotsWith, slotsWithout };
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
