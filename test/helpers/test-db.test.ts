import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from './test-db.js';

/**
 * Each test file starts from the migrated store and nothing else, also where
 * the embedded store is reused between files (test-db.ts): what one file wrote, locked, set or
 * created is gone for the next, and a handle a file closed reaches nothing any more.
 */
describe('openTestDatabase', () => {
  it('hands the next file an empty, migrated store, whatever the last one wrote', async () => {
    const first = await openTestDatabase();
    await sql`INSERT INTO workspaces (slug, name) VALUES ('left-behind', 'Left behind')`.execute(first.db);
    await sql`UPDATE worker_leases SET holder = 'a worker', lease_until = now() + interval '1 hour'`.execute(
      first.db,
    );
    await first.close();

    const next = await openTestDatabase();
    try {
      const workspaces = await sql<{ n: number }>`SELECT count(*)::int AS n FROM workspaces`.execute(next.db);
      expect(workspaces.rows[0]!.n).toBe(0);
      const leases = await sql<{ free: number; all: number }>`
        SELECT count(*) FILTER (WHERE holder IS NULL)::int AS free, count(*)::int AS all FROM worker_leases`.execute(
        next.db,
      );
      expect(leases.rows[0]).toEqual({ free: 32, all: 32 });
      const migrations = await sql<{ n: number }>`SELECT count(*)::int AS n FROM schema_migrations`.execute(
        next.db,
      );
      expect(migrations.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await next.close();
    }
  });

  it('never hands on a schema a file changed', async () => {
    const first = await openTestDatabase();
    await sql`CREATE TABLE left_behind (id int)`.execute(first.db);
    await sql`ALTER TABLE staffers ADD COLUMN left_behind text`.execute(first.db);
    await first.close();

    const next = await openTestDatabase();
    try {
      const tables = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_class WHERE relname = 'left_behind'`.execute(next.db);
      expect(tables.rows[0]!.n).toBe(0);
      const columns = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM information_schema.columns
        WHERE table_name = 'staffers' AND column_name = 'left_behind'`.execute(next.db);
      expect(columns.rows[0]!.n).toBe(0);
    } finally {
      await next.close();
    }
  });

  it('leaves a closed handle unable to reach the store the next file gets', async () => {
    const first = await openTestDatabase();
    const stale = first.db;
    await first.close();
    const next = await openTestDatabase();
    try {
      await expect(
        sql`INSERT INTO workspaces (slug, name) VALUES ('stale', 'Stale')`.execute(stale),
      ).rejects.toThrow();
      const workspaces = await sql<{ n: number }>`SELECT count(*)::int AS n FROM workspaces`.execute(next.db);
      expect(workspaces.rows[0]!.n).toBe(0);
    } finally {
      await next.close();
    }
  });
});
