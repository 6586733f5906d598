import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { distributePending, isDistributed } from './citus-distribution.js';
import type { Database } from './client.js';
import { projectRoot } from './project-root.js';
import { splitStatements } from './sql-statements.js';

// Any constant will do; it only has to be the same in every Kairos process.
const MIGRATION_LOCK_ID = 7_270_417;

export interface Migration {
  version: string;
  sql: string;
}

export function loadMigrations(dir = path.join(projectRoot(), 'migrations')): Migration[] {
  return readdirSync(dir)
    .filter((name) => /^\d{4}_.+\.sql$/.test(name))
    .sort()
    .map((name) => ({
      version: name.replace(/\.sql$/, ''),
      sql: readFileSync(path.join(dir, name), 'utf8'),
    }));
}

/**
 * Applies pending migrations, each in its own transaction. A session-level advisory lock makes
 * processes that start together against one PostgreSQL take turns, so each migration runs once.
 * On a distributed Citus database each migration also places the tables it adds, in its own
 * transaction, so an upgrade needs no step of its own (docs/operations/scale-out.md).
 * Returns the versions applied now.
 */
export async function migrate(database: Database, migrations = loadMigrations()): Promise<string[]> {
  return database.session(async (query) => {
    await query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const rows = await query('SELECT version FROM schema_migrations');
      const done = new Set(rows.map((row) => String(row.version)));
      const distributed = await isDistributed(query);
      const applied: string[] = [];
      for (const migration of migrations) {
        if (done.has(migration.version)) continue;
        try {
          await query('BEGIN');
          // Citus refuses parallel DDL on a table after DDL on a reference table in one transaction.
          if (distributed) await query(`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`);
          if (distributed) {
            for (const statement of splitStatements(migration.sql)) {
              await query(statement);
              // A table the migration made is placed at once, so a later statement of it can add a
              // foreign key between that table and a distributed one (Citus refuses a foreign key
              // from a table it has not distributed yet). Migrations write such keys as ALTER TABLE.
              await distributePending(query);
            }
          } else {
            await query(migration.sql);
          }
          await query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
          await query('COMMIT');
        } catch (error) {
          await query('ROLLBACK');
          throw new Error(`Migration ${migration.version} failed: ${(error as Error).message}`);
        }
        applied.push(migration.version);
      }
      return applied;
    } finally {
      await query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  });
}
