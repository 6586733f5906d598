import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/client.js';
import { loadMigrations, migrate } from '../../src/platform/db/migrate.js';

// A new workspace assigns staffers automatically, while the migration leaves every
// existing workspace's setting as it was. Existing rows also get their integer ids.
let database: Database;
beforeAll(async () => {
  database = await openDatabase({});
});
afterAll(() => database.close());

const ids = async (table: 'locations' | 'customers') =>
  (await database.db.selectFrom(table).select('int_id').orderBy('created_at').execute()).map((row) =>
    Number(row.int_id),
  );

describe('migration 0009_compat', () => {
  it('keeps existing workspaces as they were and makes automatic the default of new ones', async () => {
    const all = loadMigrations();
    await migrate(
      database,
      all.filter((m) => m.version < '0009'),
    );
    await database.session(async (query) => {
      await query(`INSERT INTO workspaces (slug, name) VALUES ('before-a', 'A'), ('before-b', 'B')`);
      await query(`UPDATE workspaces SET staffer_selection = 'automatic' WHERE slug = 'before-b'`);
      const [{ id }] = (await query(`SELECT id FROM workspaces WHERE slug = 'before-a'`)) as [{ id: string }];
      await query(
        `INSERT INTO customers (workspace_id, phone, created_at) VALUES ($1, '+4915100000001', now() - interval '1 minute'), ($1, '+4915100000002', now())`,
        [id],
      );
    });
    expect(await migrate(database, all)).toContain('0009_compat');

    await database.session((query) => query(`INSERT INTO workspaces (slug, name) VALUES ('after', 'C')`));
    const rows = await database.db
      .selectFrom('workspaces')
      .select(['slug', 'staffer_selection', 'country_iso'])
      .orderBy('slug')
      .execute();
    expect(rows).toEqual([
      { slug: 'after', staffer_selection: 'automatic', country_iso: '' },
      { slug: 'before-a', staffer_selection: 'required', country_iso: '' },
      { slug: 'before-b', staffer_selection: 'automatic', country_iso: '' },
    ]);
    const customerIds = await ids('customers');
    expect(customerIds).toHaveLength(2);
    expect(customerIds.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    expect(new Set(customerIds).size).toBe(2);
  });
});
