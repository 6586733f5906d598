import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/client.js';
import { loadMigrations, migrate } from '../../src/platform/db/migrate.js';
import { adminQuery } from '../helpers/test-db.js';

// Migration 0043 moves the mark of an offer the waitlist round claims itself from an `auto:`
// prefix on its token hash to made_by = 'auto'; other offers stay as they were. In-memory PGlite
// by default; with TEST_DATABASE_URL, a fresh schema there.
const POSTGRES_URL = process.env.TEST_DATABASE_URL;
const schema = `migration_0043_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
let database: Database;
beforeAll(async () => {
  if (POSTGRES_URL) {
    await adminQuery(POSTGRES_URL, 'CREATE EXTENSION IF NOT EXISTS btree_gist');
    await adminQuery(POSTGRES_URL, `CREATE SCHEMA ${schema}`);
    database = await openDatabase({ databaseUrl: POSTGRES_URL, searchPath: schema, poolSize: 2 });
  } else {
    database = await openDatabase({});
  }
});
afterAll(async () => {
  await database.close();
  if (POSTGRES_URL) await adminQuery(POSTGRES_URL, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
});

type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

async function one(query: Query, text: string, params: unknown[] = []): Promise<string> {
  const rows = await query(`${text} RETURNING id`, params);
  return String(rows[0]!.id);
}

describe('migration 0043_waitlist_auto_offers', () => {
  it("marks the round's own offers made_by 'auto' with their plain hash, and leaves the others", async () => {
    const all = loadMigrations();
    expect(all.map((m) => m.version)).toContain('0043_waitlist_auto_offers');
    await migrate(
      database,
      all.filter((m) => m.version < '0043'),
    );
    const hash = 'a'.repeat(64);
    const plain = 'b'.repeat(64);
    const ids = await database.session(async (query) => {
      const ws = await one(query, `INSERT INTO workspaces (slug, name) VALUES ('studio', 'Studio')`);
      const customer = await one(
        query,
        `INSERT INTO customers (workspace_id, phone) VALUES ($1, '+4915100000001')`,
        [ws],
      );
      const location = await one(
        query,
        `INSERT INTO locations (workspace_id, name, timezone) VALUES ($1, 'Mitte', 'Europe/Berlin')`,
        [ws],
      );
      const service = await one(
        query,
        `INSERT INTO services (workspace_id, name, duration_minutes) VALUES ($1, 'Yoga', 60)`,
        [ws],
      );
      const entry = await one(
        query,
        `INSERT INTO waitlist_entries (workspace_id, customer_id, location_id, service_id, any_time, joined_at)
         VALUES ($1, $2, $3, $4, true, now())`,
        [ws, customer, location, service],
      );
      const offer = (tokenHash: string, madeBy: string, state: string) =>
        one(
          query,
          `INSERT INTO waitlist_offers (workspace_id, entry_id, location_id, service_id, starts_at, held_until,
             state, token_hash, made_by, created_at)
           VALUES ($1, $2, $3, $4, now(), now(), $5, $6, $7, now())`,
          [ws, entry, location, service, state, tokenHash, madeBy],
        );
      return {
        auto: await offer(`auto:${hash}`, 'freed', 'claimed'),
        freed: await offer(plain, 'freed', 'expired'),
        staff: await offer('c'.repeat(64), 'staff', 'open'),
      };
    });

    expect((await migrate(database, all))[0]).toBe('0043_waitlist_auto_offers');

    const rows = await database.session((query) =>
      query('SELECT id, token_hash, made_by, state FROM waitlist_offers'),
    );
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId[ids.auto]).toMatchObject({ token_hash: hash, made_by: 'auto', state: 'claimed' });
    expect(byId[ids.freed]).toMatchObject({ token_hash: plain, made_by: 'freed', state: 'expired' });
    expect(byId[ids.staff]).toMatchObject({ token_hash: 'c'.repeat(64), made_by: 'staff', state: 'open' });
  });
});
