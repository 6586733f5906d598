import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../../../test/helpers/server-process.js';
import { openTestDatabase } from '../../../test/helpers/test-db.js';
import { buildApp } from '../../app/app.js';
import { loadConfig } from '../../config.js';
import { type Database, EMBEDDED_SETTINGS, openDatabase } from './client.js';
import { migrate } from './migrate.js';
import { CHURNING_STATISTICS_TARGET, CHURNING_TABLES, startPGliteMaintenance } from './pglite-maintenance.js';

async function vacuumedAndAnalyzed(database: Database) {
  const { rows } = await sql<{ relname: string; vacuumed: boolean; analyzed: boolean }>`
    SELECT relname, last_vacuum IS NOT NULL AS vacuumed, last_analyze IS NOT NULL AS analyzed
      FROM pg_stat_user_tables ORDER BY relname`.execute(database.db);
  return rows;
}

// The embedded store only: PostgreSQL has its own autovacuum. (client.ts starts the passes for a
// store in a data folder; here the same passes run on the test's in-memory copy.)
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the embedded store', () => {
  let database: Database;
  let maintenance: ReturnType<typeof startPGliteMaintenance>;
  beforeAll(async () => {
    database = await openTestDatabase();
    maintenance = startPGliteMaintenance(database.db, { intervalMs: 3_600_000 });
  });
  afterAll(async () => {
    maintenance?.stop();
    await database?.close();
  });

  it('vacuums the churning tables and analyzes every table on its own, soon after opening', async () => {
    // The first pass is due 2 s after opening; wait for its effect, not for a fixed time.
    let rows = await vacuumedAndAnalyzed(database);
    for (let i = 0; i < 200 && !rows.every((row) => row.analyzed); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      rows = await vacuumedAndAnalyzed(database);
    }
    expect(rows.filter((row) => !row.analyzed)).toEqual([]);
    expect(rows.filter((row) => row.vacuumed).map((row) => row.relname)).toEqual([...CHURNING_TABLES].sort());
  });

  it('/health answers while a transaction holds the store, and 503 once the store is gone', async () => {
    const app = await buildApp({ database, config: { ...loadConfig({}), worker: 'off' } });
    await app.ready();
    try {
      // Inside a transaction the Kysely queue is held: a probe queued behind it would never answer.
      const status = await database.db.transaction().execute(async (trx) => {
        await sql`SELECT count(*) FROM workspaces`.execute(trx);
        return (await app.inject({ method: 'GET', url: '/health' })).statusCode;
      });
      expect(status).toBe(200);
      await database.close();
      expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(503);
    } finally {
      await app.close();
    }
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('a maintenance pass', () => {
  it('waits for an open transaction instead of failing inside it (VACUUM cannot run in one)', async () => {
    const database = await openTestDatabase();
    try {
      const maintenance = startPGliteMaintenance(database.db, { intervalMs: 3_600_000 });
      let passDone = false;
      let pass: Promise<void> | undefined;
      await database.db.transaction().execute(async (trx) => {
        await sql`UPDATE workspaces SET name = name`.execute(trx);
        pass = maintenance.runOnce().then(() => {
          passDone = true;
        });
        await sql`SELECT 1`.execute(trx);
        expect(passDone).toBe(false);
      });
      await pass;
      expect(passDone).toBe(true);
      const rows = await vacuumedAndAnalyzed(database);
      expect(rows.filter((row) => row.vacuumed).map((row) => row.relname)).toEqual(
        [...CHURNING_TABLES].sort(),
      );
      maintenance.stop();
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('statistics on the embedded store', () => {
  const estimatedRows = async (db: Database['db'], table: string) => {
    const { rows } = await sql<{ n: number }>`
      SELECT reltuples::int AS n FROM pg_class WHERE relname = ${table} AND relkind = 'r'`.execute(db);
    return Number(rows[0]?.n);
  };

  it('are made before a store opened on data without them answers its first query', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kairos-stats-'));
    try {
      const first = await openDatabase({ dataDir: path.join(dir, 'data'), lockOwner: 'test' });
      await migrate(first);
      // A bulk load, as an import or the bench's seed makes, then closed before any pass ran.
      await sql`INSERT INTO workspaces (slug, name) SELECT 'bulk-' || i, 'Bulk' FROM generate_series(1, 400) i`.execute(
        first.db,
      );
      await first.close();
      const reopened = await openDatabase({ dataDir: path.join(dir, 'data'), lockOwner: 'test' });
      try {
        expect(await estimatedRows(reopened.db, 'workspaces')).toBe(400);
      } finally {
        await reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Two embedded stores opened from files and every migration applied: seconds of CPU.
  }, 120_000);

  it('are refreshed for the tables changed past the threshold, and only for them', async () => {
    const database = await openTestDatabase();
    const maintenance = startPGliteMaintenance(database.db, {
      intervalMs: 3_600_000,
      statsCheckMs: 3_600_000,
    });
    try {
      await maintenance.analyzeStale();
      expect(await maintenance.analyzeStale()).toEqual([]);
      await sql`INSERT INTO workspaces (slug, name) SELECT 'grown-' || i, 'Grown' FROM generate_series(1, 300) i`.execute(
        database.db,
      );
      expect(await maintenance.analyzeStale()).toEqual(['workspaces']);
      expect(await estimatedRows(database.db, 'workspaces')).toBeGreaterThanOrEqual(300);
      // A handful of changes stays under 50 rows + 10%: no ANALYZE for them.
      await sql`UPDATE workspaces SET name = 'Renamed' WHERE slug IN ('grown-1', 'grown-2')`.execute(
        database.db,
      );
      expect(await maintenance.analyzeStale()).toEqual([]);
    } finally {
      maintenance.stop();
      await database.close();
    }
  });
});

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('what a pass costs the embedded store', () => {
  const histogramSize = async (db: Database['db'], table: string, column: string) => {
    const { rows } = await sql<{ n: number | null }>`
      SELECT cardinality(histogram_bounds::text::text[]) AS n
        FROM pg_stats WHERE schemaname = 'public' AND tablename = ${table} AND attname = ${column}`.execute(
      db,
    );
    return rows[0]?.n ?? 0;
  };

  it('samples at most 300 x CHURNING_STATISTICS_TARGET rows of a churning table, the default of the rest', async () => {
    const database = await openTestDatabase();
    const maintenance = startPGliteMaintenance(database.db, {
      intervalMs: 3_600_000,
      statsCheckMs: 3_600_000,
    });
    try {
      // 5,000 idempotency keys with distinct times, and a table of ours with 5,000 distinct values.
      await sql`INSERT INTO workspaces (slug, name) VALUES ('sampled', 'Sampled')`.execute(database.db);
      await sql`
        INSERT INTO idempotency_keys (workspace_id, key, method, path, request_hash, status_code, response_body, created_at)
        SELECT w.id, 'k' || i, 'POST', '/bookings', 'h', 201, '"answer"', now() - i * interval '1 second'
          FROM workspaces w, generate_series(1, 5000) i WHERE w.slug = 'sampled'`.execute(database.db);
      await sql`CREATE TABLE sampled_numbers AS SELECT i FROM generate_series(1, 5000) i`.execute(
        database.db,
      );
      await maintenance.runOnce();
      // A histogram has target + 1 bounds at most: the sample was that small.
      expect(await histogramSize(database.db, 'idempotency_keys', 'created_at')).toBe(
        CHURNING_STATISTICS_TARGET + 1,
      );
      expect(await histogramSize(database.db, 'sampled_numbers', 'i')).toBe(101);
      // The same through the statistics check, and the session setting is back to the default.
      await sql`UPDATE idempotency_keys SET created_at = created_at - interval '1 day'`.execute(database.db);
      expect(await maintenance.analyzeStale()).toContain('idempotency_keys');
      expect(await histogramSize(database.db, 'idempotency_keys', 'created_at')).toBe(
        CHURNING_STATISTICS_TARGET + 1,
      );
      const { rows } = await sql<{ target: string }>`
        SELECT current_setting('default_statistics_target') AS target`.execute(database.db);
      expect(rows[0]?.target).toBe('100');
    } finally {
      maintenance.stop();
      await database.close();
    }
  });

  it('checkpoints once WAL was written since the last checkpoint, so a crash replays little', async () => {
    const database = await openTestDatabase();
    const maintenance = startPGliteMaintenance(database.db, {
      intervalMs: 3_600_000,
      statsCheckMs: 3_600_000,
      checkpointMs: 3_600_000,
    });
    try {
      await maintenance.checkpointIfDue();
      expect(await maintenance.checkpointIfDue()).toBe(0);
      await sql`CREATE TABLE wal_filler AS SELECT i, repeat('x', 500) AS pad FROM generate_series(1, 5000) i`.execute(
        database.db,
      );
      expect(await maintenance.checkpointIfDue()).toBeGreaterThan(1024 * 1024);
      expect(await maintenance.checkpointIfDue()).toBe(0);
    } finally {
      maintenance.stop();
      await database.close();
    }
  });

  it('a store in a data folder runs with the embedded settings (small buffer pool, bounded WAL)', async () => {
    // A copy of the migrated store, as made by initdb with its 128 MB buffer pool.
    const dir = migratedDataDir('kairos-settings-');
    try {
      const database = await openDatabase({ dataDir: dir, lockOwner: 'test' });
      try {
        for (const [name, value] of Object.entries(EMBEDDED_SETTINGS)) {
          const { rows } = await sql<
            Record<string, string>
          >`SELECT current_setting(${name}) AS value`.execute(database.db);
          expect(rows[0]?.value, name).toBe(value);
        }
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
