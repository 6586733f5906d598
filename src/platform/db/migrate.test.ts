import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery, openTestDatabase } from '../../../test/helpers/test-db.js';
import { type Database, openDatabase } from './client.js';
import { DataDirLockedError } from './data-dir-lock.js';
import { loadMigrations, migrate } from './migrate.js';

const versions = loadMigrations().map((migration) => migration.version);

describe('migrate', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it('is harmless the second time: nothing is applied and nothing is recorded twice', async () => {
    // openTestDatabase already migrated once.
    expect(await migrate(database)).toEqual([]);
    const rows = await database.session((query) =>
      query('SELECT version FROM schema_migrations ORDER BY version'),
    );
    expect(rows.map((row) => row.version)).toEqual(versions);
  });
});

const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

// Skipped only when no PostgreSQL answers at POSTGRES_URL (CI always has one).
describe.skipIf(!(await postgresReachable()))('migrate on one PostgreSQL from two processes at once', () => {
  const schema = `migrate_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const open: Database[] = [];
  beforeAll(async () => {
    // As in CI's global set-up: the extension lives in public, shared by every schema.
    await adminQuery(POSTGRES_URL, 'CREATE EXTENSION IF NOT EXISTS btree_gist');
    await adminQuery(POSTGRES_URL, `CREATE SCHEMA ${schema}`);
  });
  afterAll(async () => {
    await Promise.all(open.map((database) => database.close()));
    await adminQuery(POSTGRES_URL, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('both succeed and each migration is applied exactly once', async () => {
    // Two pools are two sets of sessions, exactly what two server processes would hold.
    for (let i = 0; i < 2; i++) {
      open.push(await openDatabase({ databaseUrl: POSTGRES_URL, searchPath: schema, poolSize: 2 }));
    }
    const [first, second] = await Promise.all(open.map((database) => migrate(database)));
    // Whoever got the lock first applied everything; the other found nothing left to do.
    expect([...first!, ...second!].sort()).toEqual(versions);
    const rows = await open[0]!.session((query) =>
      query('SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version'),
    );
    expect(rows).toEqual(versions.map((version) => ({ version, n: 1 })));
    // The tables landed in the fresh schema, not somewhere else on the search path.
    const tables = await open[1]!.session((query) =>
      query('SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1', [schema]),
    );
    expect(tables[0]!.n).toBeGreaterThan(10);
  });
});

// The embedded store only, the same in both CI passes: the PostgreSQL pass skips it.
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the embedded store in DATA_DIR', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'kairos-restart-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps its data across a restart (open, write, close, reopen, read)', async () => {
    const first = await openDatabase({ dataDir });
    try {
      expect(await migrate(first)).toEqual(versions);
      await first.db.insertInto('workspaces').values({ slug: 'kept', name: 'Kept Studio' }).execute();
      // While it is open, a second open of the folder is refused before it touches the files.
      await expect(openDatabase({ dataDir, lockOwner: 'cli' })).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      await first.close();
    }
    const second = await openDatabase({ dataDir });
    try {
      expect(await migrate(second)).toEqual([]);
      const row = await second.db
        .selectFrom('workspaces')
        .select(['slug', 'name'])
        .where('slug', '=', 'kept')
        .executeTakeFirst();
      expect(row).toEqual({ slug: 'kept', name: 'Kept Studio' });
    } finally {
      await second.close();
    }
    // Two embedded stores opened from files and every migration applied: seconds of CPU.
  }, 120_000);
});
