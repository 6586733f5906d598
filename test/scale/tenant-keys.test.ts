import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/client.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { GLOBAL_TABLES } from './global-tables.js';

/**
 * The schema can be distributed by workspace_id on Citus. After all
 * migrations, every primary key, unique key (constraint or unique index), exclusion constraint and
 * foreign key of a tenant table includes workspace_id — with `=` in an exclusion, and matched to
 * the referenced table's workspace_id in a foreign key, so joins along it stay on one node.
 *
 * A tenant table is one with a workspace_id column. Every other table must be listed in
 * GLOBAL_TABLES (./global-tables.ts), with the reason it is global.
 */
interface KeyRow {
  table: string;
  name: string;
  kind: 'p' | 'u' | 'x' | 'f' | 'i';
  columns: string[];
  /** Exclusion constraints: the operator of each column, in order. */
  operators: string[] | null;
  /** Foreign keys: the referenced table and its columns, in the order of `columns`. */
  ref_table: string | null;
  ref_columns: string[] | null;
}

let database: Database;
let tables: { name: string; tenant: boolean }[];
let keys: KeyRow[];

beforeAll(async () => {
  database = await openTestDatabase();
  const tableRows = await sql<{ name: string; tenant: boolean }>`
    SELECT c.relname AS name,
           EXISTS (SELECT 1 FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attname = 'workspace_id' AND NOT a.attisdropped) AS tenant
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
    ORDER BY 1`.execute(database.db);
  tables = tableRows.rows;
  const keyRows = await sql<KeyRow>`
    SELECT c.relname AS table, con.conname AS name, con.contype AS kind,
           ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum
                 ORDER BY k.ord) AS columns,
           CASE WHEN con.contype = 'x' THEN
             ARRAY(SELECT o.oprname::text FROM unnest(con.conexclop) WITH ORDINALITY AS x(op, ord)
                   JOIN pg_operator o ON o.oid = x.op ORDER BY x.ord) END AS operators,
           rc.relname AS ref_table,
           CASE WHEN con.contype = 'f' THEN
             ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum
                   ORDER BY k.ord) END AS ref_columns
    FROM pg_constraint con
    JOIN pg_class c ON c.oid = con.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_class rc ON rc.oid = con.confrelid
    WHERE n.nspname = current_schema() AND con.contype IN ('p', 'u', 'x', 'f')
    UNION ALL
    -- Unique indexes made with CREATE UNIQUE INDEX (no constraint behind them); an expression
    -- column shows as NULL and never counts as workspace_id.
    SELECT c.relname, i.relname, 'i', ARRAY(
             SELECT COALESCE(a.attname::text, '(expression)')
             FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
             LEFT JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum
             ORDER BY k.ord),
           NULL, NULL, NULL
    FROM pg_index ix
    JOIN pg_class i ON i.oid = ix.indexrelid
    JOIN pg_class c ON c.oid = ix.indrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = current_schema() AND ix.indisunique
      AND NOT EXISTS (SELECT 1 FROM pg_constraint con WHERE con.conindid = ix.indexrelid)
    ORDER BY 1, 2`.execute(database.db);
  keys = keyRows.rows;
});

afterAll(async () => {
  await database?.close();
});

const KIND = { p: 'PRIMARY KEY', u: 'UNIQUE', x: 'EXCLUDE', f: 'FOREIGN KEY', i: 'UNIQUE INDEX' } as const;

/** Why a key breaks distribution by workspace, or undefined when it is fine. */
function problemOf(key: KeyRow, tenantTables: Set<string>): string | undefined {
  // A foreign key to a global table (a Citus reference table, e.g. users) is distributable as is.
  if (key.kind === 'f' && key.ref_table && !tenantTables.has(key.ref_table)) return undefined;
  const at = key.columns.indexOf('workspace_id');
  if (at === -1) return `does not include workspace_id`;
  if (key.kind === 'x' && key.operators?.[at] !== '=') {
    return `compares workspace_id with ${key.operators?.[at]}, not =`;
  }
  if (key.kind === 'f' && key.ref_table && tenantTables.has(key.ref_table)) {
    const target = key.ref_columns?.[at];
    if (target !== 'workspace_id')
      return `maps workspace_id to ${key.ref_table}.${target}, not to its workspace_id`;
  }
  return undefined;
}

describe('tenant keys (issue 17.1, DESIGN §8)', () => {
  it('reads a schema with tenant tables and keys (the catalog query itself works)', () => {
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['bookings', 'occupancies']));
    const exclusion = keys.find((key) => key.name === 'occupancies_no_overlap');
    expect(exclusion).toMatchObject({ kind: 'x', columns: ['workspace_id', 'staffer_id', 'span'] });
    expect(exclusion?.operators).toEqual(['=', '=', '&&']);
  });

  it('reports keys that would not distribute (the check itself can fail)', () => {
    const tenant = new Set(['bookings', 'customers']);
    const key = (over: Partial<KeyRow>): KeyRow => ({
      table: 'bookings',
      name: 'k',
      kind: 'u',
      columns: ['workspace_id', 'id'],
      operators: null,
      ref_table: null,
      ref_columns: null,
      ...over,
    });
    expect(problemOf(key({}), tenant)).toBeUndefined();
    expect(problemOf(key({ columns: ['id'] }), tenant)).toBe('does not include workspace_id');
    expect(
      problemOf(key({ kind: 'x', columns: ['workspace_id', 'span'], operators: ['<>', '&&'] }), tenant),
    ).toMatch(/not =/);
    expect(
      problemOf(
        key({
          kind: 'f',
          columns: ['workspace_id', 'customer_id'],
          ref_table: 'customers',
          ref_columns: ['id', 'workspace_id'],
        }),
        tenant,
      ),
    ).toMatch(/customers\.id/);
    expect(
      problemOf(
        key({ kind: 'f', columns: ['workspace_id'], ref_table: 'workspaces', ref_columns: ['id'] }),
        tenant,
      ),
    ).toBeUndefined();
  });

  it('names every table without workspace_id in the global list, with a reason', () => {
    const unlisted = tables
      .filter((table) => !table.tenant && !(table.name in GLOBAL_TABLES))
      .map((table) => `table ${table.name} has no workspace_id column and is not in GLOBAL_TABLES`);
    expect(unlisted, 'add workspace_id to these tables, or list them in GLOBAL_TABLES with why').toEqual([]);
    const listedTenant = tables
      .filter((table) => table.tenant && table.name in GLOBAL_TABLES)
      .map((table) => `table ${table.name} has workspace_id but is listed in GLOBAL_TABLES`);
    expect(listedTenant).toEqual([]);
  });

  it('includes workspace_id in every PK, UNIQUE, EXCLUDE (with =) and FK of a tenant table', () => {
    const tenantTables = new Set(tables.filter((table) => table.tenant).map((table) => table.name));
    const failures = keys
      .filter((key) => tenantTables.has(key.table))
      .flatMap((key) => {
        const problem = problemOf(key, tenantTables);
        return problem
          ? [`${key.table}: ${KIND[key.kind]} ${key.name} (${key.columns.join(', ')}) ${problem}`]
          : [];
      });
    expect(failures, 'tenant keys that would not distribute by workspace_id').toEqual([]);
    // Every tenant table has a primary key: Citus distributes and co-locates by it.
    const withoutPk = [...tenantTables].filter(
      (table) => !keys.some((k) => k.table === table && k.kind === 'p'),
    );
    expect(withoutPk, 'tenant tables without a primary key').toEqual([]);
  });
});
