import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchOutbox } from '../../src/outbox/outbox-dispatch.service.js';
import { distributeSchema } from '../../src/platform/db/citus-distribution.js';
import { type Database, openDatabase } from '../../src/platform/db/client.js';
import { loadMigrations, migrate } from '../../src/platform/db/migrate.js';
import { outboxHandlers } from '../../src/workers.js';
import { at, bookingBody } from '../bookings/bookings-kit.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';

/**
 * Upgrading Kairos on a distributed cluster: a database distributed at an older release
 * (migrations up to 0012), then started with this one. The later migrations alter distributed
 * tables (0013 moves a link between two of them and drops a column, 0014 adds a column) and add
 * a tenant table (0015, workspace_locks), which must come out distributed and co-located with
 * the others, so that everything keeps working on it.
 */
const cluster = process.env.CITUS_CLUSTER;
const url = process.env.TEST_CITUS_URL;
if (!cluster || !url)
  throw new Error('the Citus suite runs with CITUS_CLUSTER and TEST_CITUS_URL (npm run test:citus)');
const run = promisify(execFile);
const UPGRADE_DB = 'kairos_upgrade';
const upgradeUrl = Object.assign(new URL(url), { pathname: `/${UPGRADE_DB}` }).toString();
const RELEASED = '0012_calendar_feeds';

let database: Database;
const later = loadMigrations()
  .filter((migration) => migration.version > RELEASED)
  .map((migration) => migration.version);

beforeAll(async () => {
  await run(cluster, ['reset'], { env: { ...process.env, CITUS_DB: UPGRADE_DB } });
  database = await openDatabase({ databaseUrl: upgradeUrl, poolSize: 6 });
  await migrate(
    database,
    loadMigrations().filter((migration) => migration.version <= RELEASED),
  );
  await database.session(distributeSchema);
}, 300_000);
afterAll(() => database?.close());

describe('migrations applied on a distributed database', () => {
  it('apply, and place the tables they add in the group of the others', async () => {
    expect(later).toContain('0015_workspace_locks');
    expect(await migrate(database)).toEqual(later);
    const groups = await database.session((query) =>
      query(
        `SELECT logicalrelid::regclass::text AS name, colocationid FROM pg_dist_partition
          WHERE logicalrelid::regclass::text IN ('workspace_locks', 'locations', 'outbox_events')`,
      ),
    );
    expect(groups).toHaveLength(3);
    expect(new Set(groups.map((row) => row.colocationid)).size).toBe(1);
  });

  it('leave a database the app books on, dispatching through the new table', async () => {
    const clock = new FixedClock('2026-09-01T08:00:00Z');
    const t = await buildTestApp({ clock, database });
    try {
      const f = await bookingFixture(t);
      await t.call('POST', '/webhooks', { url: 'https://93.184.216.34/hook', events: ['booking-created'] });
      const created = await t.call('POST', '/bookings', bookingBody(f, at('2026-09-10', '10:00')));
      expect(created.statusCode, created.body).toBe(201);
      expect(await dispatchOutbox(database.db, outboxHandlers(), clock.now(), 100)).toBe(1);
      const locks = await database.db
        .selectFrom('workspace_locks')
        .select('name')
        .where('workspace_id', '=', t.workspace.id)
        .execute();
      expect(locks.map((row) => row.name)).toContain('outbox_dispatch');
    } finally {
      await t.close();
    }
  });
});
