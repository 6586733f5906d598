import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/platform/db/client.js';
import { openTestDatabase } from '../helpers/test-db.js';
import { GLOBAL_TABLES } from './global-tables.js';

/**
 * docs/operations/citus.sql distributes the migrated schema on Citus (issue 17.5). Citus is not on
 * these machines, so this test holds the script to the schema it is meant for: every table named
 * once — tenant tables distributed, global ones reference or coordinator-local — and each
 * distributed table after every table its foreign keys point at (Citus refuses it otherwise).
 */
const script = readFileSync(path.resolve(import.meta.dirname, '../../docs/operations/citus.sql'), 'utf8');
const named = (pattern: RegExp) => [...script.matchAll(pattern)].map((m) => m[1]!);
const distributed = named(/create_distributed_table\('([a-z_]+)'/g);
const reference = named(/create_reference_table\('([a-z_]+)'/g);
const local = (/^-- local: (.+)$/m.exec(script)?.[1] ?? '').split(',').map((name) => name.trim());

let database: Database;
let tables: string[];
let parents: Map<string, string[]>;

beforeAll(async () => {
  database = await openTestDatabase();
  const listed = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`.execute(database.db);
  tables = listed.rows.map((row) => row.name).sort();
  const keys = await sql<{ child: string; parent: string }>`
    SELECT DISTINCT c.relname AS child, p.relname AS parent
      FROM pg_constraint k
      JOIN pg_class c ON c.oid = k.conrelid
      JOIN pg_class p ON p.oid = k.confrelid
     WHERE k.contype = 'f' AND c.relname <> p.relname`.execute(database.db);
  parents = new Map();
  for (const { child, parent } of keys.rows) parents.set(child, [...(parents.get(child) ?? []), parent]);
});
afterAll(() => database?.close());

describe('docs/operations/citus.sql', () => {
  it('names every table of the migrated schema exactly once', () => {
    const all = [...distributed, ...reference, ...local];
    expect(
      all.filter((name, i) => all.indexOf(name) !== i),
      'named twice',
    ).toEqual([]);
    expect([...all].sort()).toEqual(tables);
  });

  it('distributes every tenant table, and only those', () => {
    const tenant = tables.filter((name) => !(name in GLOBAL_TABLES));
    expect([...distributed].sort()).toEqual(tenant);
  });

  it('distributes each table after the tables its foreign keys point at', () => {
    const late = distributed.flatMap((table, position) =>
      (parents.get(table) ?? [])
        .filter((parent) => !reference.includes(parent) && distributed.indexOf(parent) > position)
        .map((parent) => `${table} before its parent ${parent}`),
    );
    expect(late).toEqual([]);
    // A distributed table may point at a reference table or a co-located one, never a local one.
    const toLocal = distributed.flatMap((table) =>
      (parents.get(table) ?? []).filter((parent) => local.includes(parent)).map((p) => `${table} -> ${p}`),
    );
    expect(toLocal).toEqual([]);
  });
});
