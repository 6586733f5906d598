import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/helpers/test-db.js';
import {
  DistributionError,
  GLOBAL_TABLES,
  planDistribution,
  statementOf,
  type TableFacts,
} from './citus-distribution.js';
import type { Database } from './client.js';

/**
 * The plan `db distribute` runs, on the schema the migrations make (PGlite or PostgreSQL; the
 * Citus suite runs it for real, test/citus). Every table placed once, each distributed table
 * after the tables its foreign keys point at, never a foreign key to a coordinator-local table.
 */
let database: Database;
let facts: TableFacts[];

beforeAll(async () => {
  database = await openTestDatabase();
  const tables = await sql<{ name: string; has_workspace_id: boolean }>`
    SELECT c.relname AS name,
           EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'workspace_id'
                    AND NOT a.attisdropped) AS has_workspace_id
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`.execute(database.db);
  const keys = await sql<{ child: string; parent: string }>`
    SELECT DISTINCT c.relname AS child, p.relname AS parent
      FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     WHERE k.contype = 'f' AND c.relname <> p.relname`.execute(database.db);
  facts = tables.rows.map((row) => ({
    name: row.name,
    hasWorkspaceId: row.has_workspace_id,
    placed: false,
    parents: keys.rows.filter((key) => key.child === row.name).map((key) => key.parent),
  }));
});
afterAll(() => database?.close());

describe('the distribution plan of the migrated schema', () => {
  it('makes the reference tables first, then distributes every other tenant table, co-located', () => {
    const plan = planDistribution(facts);
    const reference = plan.filter((p) => p.kind === 'reference').map((p) => p.table);
    expect(reference.sort()).toEqual(['password_reset_tokens', 'sessions', 'users', 'workspaces']);
    expect(plan.findIndex((p) => p.kind === 'distributed')).toBe(reference.length);
    const distributed = plan.filter((p) => p.kind === 'distributed');
    const tenant = facts.filter((t) => t.hasWorkspaceId).map((t) => t.name);
    expect(distributed.map((p) => p.table).sort()).toEqual(tenant.sort());
    // The first anchors the group; all others join it.
    const [anchor, ...rest] = distributed;
    expect(anchor).toMatchObject({ colocateWith: 'none' });
    expect(new Set(rest.map((p) => (p.kind === 'distributed' ? p.colocateWith : '')))).toEqual(
      new Set([anchor!.table]),
    );
    expect(statementOf(anchor!)).toBe(
      `SELECT create_distributed_table('${anchor!.table}', 'workspace_id', colocate_with => 'none')`,
    );
  });

  it('keeps the coordinator-local tables out of it', () => {
    const placed = new Set(planDistribution(facts).map((p) => p.table));
    expect([...placed].filter((t) => GLOBAL_TABLES[t]?.placement === 'local')).toEqual([]);
    expect(
      facts
        .filter((t) => !placed.has(t.name))
        .map((t) => t.name)
        .sort(),
    ).toEqual(['delivery_workers', 'schema_migrations', 'worker_leases']);
  });

  it('places each table after the tables its foreign keys point at', () => {
    const plan = planDistribution(facts).map((p) => p.table);
    const late = facts.flatMap((table) =>
      table.parents
        .filter((parent) => plan.includes(parent) && plan.indexOf(parent) > plan.indexOf(table.name))
        .map((parent) => `${table.name} before its parent ${parent}`),
    );
    expect(late).toEqual([]);
    const toLocal = facts.flatMap((table) =>
      table.parents
        .filter((p) => GLOBAL_TABLES[p]?.placement === 'local')
        .map((p) => `${table.name} -> ${p}`),
    );
    expect(toLocal).toEqual([]);
  });
});

describe('planDistribution', () => {
  const table = (name: string, parents: string[] = [], placed = false): TableFacts => ({
    name,
    hasWorkspaceId: true,
    parents,
    placed,
  });

  it('places only what is not placed yet, joining the existing group (an upgrade)', () => {
    const plan = planDistribution([table('locations', [], true), table('rooms', ['locations'])], 'locations');
    expect(plan.map(statementOf)).toEqual([
      `SELECT create_distributed_table('rooms', 'workspace_id', colocate_with => 'locations')`,
    ]);
  });

  it('orders children after parents whatever their names', () => {
    const plan = planDistribution([table('a_child', ['z_parent']), table('z_parent')]);
    expect(plan.map((p) => p.table)).toEqual(['z_parent', 'a_child']);
  });

  it('refuses a table without workspace_id that has no placement, naming it', () => {
    expect(() =>
      planDistribution([{ name: 'stray', hasWorkspaceId: false, parents: [], placed: false }]),
    ).toThrow(DistributionError);
    expect(() =>
      planDistribution([{ name: 'stray', hasWorkspaceId: false, parents: [], placed: false }]),
    ).toThrow(/stray has no workspace_id/);
  });
});
