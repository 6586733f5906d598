import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/client.js';
import { loadMigrations, migrate } from '../../src/platform/db/migrate.js';
import { adminQuery } from '../helpers/test-db.js';

// One link between a panel user and a staffer. Migration 0013 carries each
// staffers.user_id over to its membership's staffer_id (an existing memberships link wins), then
// drops the column. In-memory PGlite by default; with TEST_DATABASE_URL, a fresh schema there.
const POSTGRES_URL = process.env.TEST_DATABASE_URL;
const schema = `migration_0013_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
let database: Database;
beforeAll(async () => {
  if (POSTGRES_URL) {
    // As in CI's global set-up: the extension lives in public, shared by every schema.
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

describe('migration 0013_one_staffer_link', () => {
  it('moves staffers.user_id into memberships.staffer_id, keeps existing links, and drops the column', async () => {
    const all = loadMigrations();
    expect(all.map((m) => m.version)).toContain('0013_one_staffer_link');
    await migrate(
      database,
      all.filter((m) => m.version < '0013'),
    );
    const ids = await database.session(async (query) => {
      const ws = await one(query, `INSERT INTO workspaces (slug, name) VALUES ('studio', 'Studio')`);
      const other = await one(query, `INSERT INTO workspaces (slug, name) VALUES ('other', 'Other')`);
      const user = (email: string) =>
        one(query, `INSERT INTO users (email, password_hash) VALUES ($1, 'x')`, [email]);
      const member = (workspace: string, userId: string, stafferId: string | null = null) =>
        query(
          `INSERT INTO memberships (workspace_id, user_id, role, staffer_id) VALUES ($1, $2, 'staff', $3)`,
          [workspace, userId, stafferId],
        );
      // Made `daysAgo` days ago, and archived if said so.
      const staffer = (
        workspace: string,
        name: string,
        userId: string | null,
        daysAgo = 1,
        archived = false,
      ) =>
        one(
          query,
          `INSERT INTO staffers (workspace_id, first_name, user_id, created_at, archived_at)
           VALUES ($1, $2, $3, now() - make_interval(days => $4::int), ${archived ? 'now()' : 'NULL'})`,
          [workspace, name, userId, daysAgo],
        );
      const [ana, bo, cy, di, ed, flo, gus] = await Promise.all(
        ['ana', 'bo', 'cy', 'di', 'ed', 'flo', 'gus'].map((n) => user(`${n}@example.com`)),
      );
      // Ana: a plain staffers.user_id link, her membership free.
      const anna = await staffer(ws, 'Anna', ana!);
      await member(ws, ana!);
      // Bo: linked by staffers.user_id to Bert, whom Cy already is: Cy's link stays.
      const bert = await staffer(ws, 'Bert', bo!);
      await member(ws, bo!);
      await member(ws, cy!, bert);
      // Di: linked by staffers.user_id to Clara, but already Dora by memberships: Dora stays.
      const clara = await staffer(ws, 'Clara', di!);
      const dora = await staffer(ws, 'Dora', null);
      await member(ws, di!, dora);
      // Ed: linked to Emil, but no member of this workspace (removed): nothing to link.
      const emil = await staffer(ws, 'Emil', ed!);
      await member(other, ed!);
      // Flo: linked to two staffers: the live one wins over the older archived one.
      const fritz = await staffer(ws, 'Fritz', flo!, 30, true);
      const frieda = await staffer(ws, 'Frieda', flo!, 2);
      await member(ws, flo!);
      // Gus: a member of both workspaces, linked to Gina in the other only.
      const gina = await staffer(other, 'Gina', gus!);
      await member(ws, gus!);
      await member(other, gus!);
      return { ws, other, ana, bo, cy, di, ed, flo, gus, anna, bert, clara, dora, emil, fritz, frieda, gina };
    });

    // 0013 first, then whatever came after it.
    expect((await migrate(database, all))[0]).toBe('0013_one_staffer_link');

    const links = await database.session((query) =>
      query(`SELECT workspace_id, user_id, staffer_id FROM memberships ORDER BY workspace_id, user_id`),
    );
    const linkOf = (workspace: string, userId: string) =>
      links.find((row) => row.workspace_id === workspace && row.user_id === userId)?.staffer_id;
    expect(linkOf(ids.ws, ids.ana!)).toBe(ids.anna);
    expect(linkOf(ids.ws, ids.bo!)).toBeNull();
    expect(linkOf(ids.ws, ids.cy!)).toBe(ids.bert);
    expect(linkOf(ids.ws, ids.di!)).toBe(ids.dora);
    expect(linkOf(ids.other, ids.ed!)).toBeNull();
    expect(linkOf(ids.ws, ids.flo!)).toBe(ids.frieda);
    expect(linkOf(ids.ws, ids.gus!)).toBeNull();
    expect(linkOf(ids.other, ids.gus!)).toBe(ids.gina);
    expect(links).toHaveLength(8);

    const columns = await database.session((query) =>
      query(
        `SELECT column_name FROM information_schema.columns
         WHERE table_name = 'staffers' AND table_schema = current_schema()`,
      ),
    );
    expect(columns.map((c) => c.column_name)).not.toContain('user_id');
    expect(columns.map((c) => c.column_name)).toContain('booking_emails');
  });
});
