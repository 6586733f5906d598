import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/client.js';
import { loadMigrations } from '../../src/platform/db/migrate.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import {
  expectOnlySlotConflicts,
  expectSound,
  httpSender,
  phoneNumber,
  type Send,
  statusCounts,
} from '../helpers/concurrency.js';
import { createLocation, createService, createStaffer, EVERY_DAY_9_TO_17 } from '../helpers/factories.js';
import { createScratchDatabase, ensureServerBuilt, ServerProcess } from '../helpers/server-process.js';

/**
 * No double booking across processes: two API processes started together on one
 * fresh PostgreSQL database (both migrate at once), 60 creates for one slot split between them.
 * The processes use the real clock, so the slot is computed from now: 12:00 Berlin three days ahead.
 */
// The Citus suite runs this too (test/citus/vitest.config.ts), on its shared distributed database.
const url = process.env.TEST_DATABASE_URL ?? process.env.TEST_CITUS_URL;
const CROWD = 60;

describe.skipIf(!url)('two server processes on one PostgreSQL (runs only with TEST_DATABASE_URL)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  const servers: ServerProcess[] = [];
  let database: Database | undefined;
  let senders: Send[];
  let headers: Record<string, string>;
  let workspaceId: string;
  let studio: { location: string; haircut: string; pilates: string; anna: string; ben: string };
  // Three days ahead of today in Berlin, noon: inside 09-17, on the 15-minute grid, past min notice.
  const noon = DateTime.now()
    .setZone('Europe/Berlin')
    .plus({ days: 3 })
    .set({ hour: 12, minute: 0, second: 0, millisecond: 0 })
    .toUTC()
    .toISO({ suppressMilliseconds: true });

  beforeAll(async () => {
    await ensureServerBuilt();
    scratch = await createScratchDatabase(url!, 'kairos_conc');
    // Without a bus, cached answers read their version from the store: exact at once across
    // processes (test/scale/cross-process-freshness.test.ts covers the buses).
    const env = { INVALIDATION_BUS: 'off' };
    servers.push(
      new ServerProcess({ databaseUrl: scratch.url }, { env }),
      new ServerProcess({ databaseUrl: scratch.url }, { env }),
    );
    const started = await Promise.all(servers.map((server) => server.started));
    senders = started.map((s) => httpSender(s.base));

    database = await openDatabase({ databaseUrl: scratch.url, poolSize: 2 });
    const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
      slug: 'conc-studio',
      name: 'Conc Studio',
    });
    workspaceId = workspace.id;
    headers = { authorization: `Bearer ${apiKey.secret}`, workspace: workspace.slug };
    const location = await createLocation(database.db, workspaceId, { timezone: 'Europe/Berlin' });
    const haircut = await createService(database.db, workspaceId, [location.id], { durationMinutes: 60 });
    const pilates = await createService(database.db, workspaceId, [location.id], {
      name: 'Pilates group',
      durationMinutes: 60,
      capacity: 5,
    });
    const anna = await createStaffer(database.db, workspaceId, location.id, [haircut.id], {
      firstName: 'Anna',
      weekly: EVERY_DAY_9_TO_17,
    });
    const ben = await createStaffer(database.db, workspaceId, location.id, [pilates.id], {
      firstName: 'Ben',
      weekly: EVERY_DAY_9_TO_17,
    });
    studio = { location: location.id, haircut: haircut.id, pilates: pilates.id, anna: anna.id, ben: ben.id };
  }, 300_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.close();
    await scratch?.drop();
  });

  // On the Citus suite the database was migrated and distributed before (db migrate, db distribute).
  it.skipIf(Boolean(process.env.TEST_CITUS_URL))(
    'both processes started together: every migration applied once, one demo workspace',
    async () => {
      const versions = await database!.db
        .selectFrom('schema_migrations' as never)
        .select('version' as never)
        .execute();
      expect(versions.map((row) => (row as { version: string }).version).sort()).toEqual(
        loadMigrations().map((migration) => migration.version),
      );
      const demos = await database!.db
        .selectFrom('workspaces')
        .select('slug')
        .where('slug', '=', 'demo')
        .execute();
      expect(demos).toHaveLength(1);
      expect((await Promise.all(servers.map((server) => server.started))).filter((s) => s.demo)).toHaveLength(
        1,
      );
    },
  );

  async function createAtNoon(service: string, staffer: string) {
    return Promise.all(
      Array.from({ length: CROWD }, (_, i) =>
        senders[i % senders.length]!('POST', '/bookings', headers, {
          reserved_on: noon,
          location_uuid: studio.location,
          service_uuid: service,
          staffer_uuid: staffer,
          customer_phone: phoneNumber(i),
          customer_first_name: `Guest ${i}`,
        }),
      ),
    );
  }

  it(`individual service: of ${CROWD} creates split over both processes exactly one is 201`, async () => {
    const answers = await createAtNoon(studio.haircut, studio.anna);
    expect(statusCounts(answers), servers.map((server) => server.log).join('\n')).toEqual({
      201: 1,
      409: CROWD - 1,
    });
    const [winner] = expectOnlySlotConflicts(answers, 201);
    expect(winner!.body.data).toMatchObject({ start_time: noon, staffer: { uuid: studio.anna } });
    await expectSound(database!.db, workspaceId, 1);
  });

  it(`group class of capacity 5: of ${CROWD} creates split over both processes exactly 5 are 201`, async () => {
    const answers = await createAtNoon(studio.pilates, studio.ben);
    expect(statusCounts(answers)).toEqual({ 201: 5, 409: CROWD - 5 });
    expectOnlySlotConflicts(answers, 201);
    // The haircut of the test before stays: 1 + 5 live bookings.
    await expectSound(database!.db, workspaceId, 6);
  });

  it('a write on one process invalidates the other’s cached slot answers of that workspace', async () => {
    // Both calls must fall in one minute, else the cache misses anyway (it is keyed by minute).
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 61_000 - intoMinute));
    const day = DateTime.now().setZone('Europe/Berlin').plus({ days: 4 });
    const date = day.toISODate()!;
    const path = `/locations/${studio.location}/time-slots?service_uuid=${studio.haircut}&range_start=${date}&range_end=${date}`;
    const tenAt = (answer: { body: Record<string, unknown> }) =>
      (answer.body.dates as { slots: { start: string }[] }[])[0]!.slots.some(
        (slot) => slot.start === '10:00',
      );
    const listed = await senders[0]!('GET', path, headers);
    expect(tenAt(listed)).toBe(true);
    // Anna's 10:00 taken straight in the store (no unit of work): process 0 still serves its cache.
    const ten = day.set({ hour: 10, minute: 0, second: 0, millisecond: 0 }).toUTC();
    await database!.db
      .insertInto('occupancies')
      .values({
        workspace_id: workspaceId,
        staffer_id: studio.anna,
        location_id: studio.location,
        service_id: studio.haircut,
        service_start: ten.toJSDate(),
        span: `[${ten.toISO()},${ten.plus({ hours: 1 }).toISO()})`,
        capacity: 1,
        seats_taken: 1,
      })
      .execute();
    expect(tenAt(await senders[0]!('GET', path, headers)), 'served from process 0’s cache').toBe(true);
    const write = await senders[1]!('PATCH', '/workspace', headers, { name: 'Conc Studio renamed' });
    expect(write.status).toBe(200);
    expect(tenAt(await senders[0]!('GET', path, headers)), 'process 0 computed afresh').toBe(false);
  });
});
