import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/helpers/test-db.js';
import type { Database } from './client.js';
import { statementName } from './prepared-statements.js';

describe('statement names', () => {
  it('gives one text one name, and different texts different names', () => {
    const a = statementName('SELECT $1::int AS a /* names test */');
    expect(a).toBeDefined();
    expect(statementName('SELECT $1::int AS a /* names test */')).toBe(a);
    expect(statementName('SELECT $1::int AS b /* names test */')).not.toBe(a);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('prepared statements on PostgreSQL', () => {
  let database: Database;
  // One connection, so every query below meets the statements the previous ones prepared.
  beforeAll(async () => {
    database = await openTestDatabase({ poolSize: 1 });
  });
  afterAll(() => database.close());

  const prepared = async () =>
    (
      await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(database.db)
    ).rows.map((row) => row.statement);

  it('prepares a parameterised query once and reuses it with other values', async () => {
    const query = (n: number) =>
      database.db.selectFrom('workspaces').select('slug').where('slug', '=', `prepared-${n}`).execute();
    await query(1);
    const after = await prepared();
    const matching = after.filter((text) => text.includes('"workspaces"') && text.includes('"slug" = $1'));
    expect(matching).toHaveLength(1);
    await query(2);
    expect((await prepared()).length).toBe(after.length);
  });

  it('runs a text of several statements without parameters (the simple protocol)', async () => {
    const rows = await database.session((query) => query('SELECT 1 AS one; SELECT 2 AS two'));
    expect(rows).toEqual([{ two: 2 }]);
  });

  it('keeps working after a statement fails inside a transaction', async () => {
    await expect(
      database.db.transaction().execute(async (tx) => {
        await sql`SELECT 1 / ${0}::int`.execute(tx);
      }),
    ).rejects.toThrow(/division by zero/);
    const rows = await sql<{ n: number }>`SELECT ${41}::int + 1 AS n`.execute(database.db);
    expect(rows.rows[0]?.n).toBe(42);
  });
});
