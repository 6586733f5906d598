import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocation } from '../../../test/helpers/factories.js';
import { openTestDatabase } from '../../../test/helpers/test-db.js';
import { createWorkspace } from '../../workspaces/workspaces.service.js';
import { openWritePath } from '../../write-path.js';
import type { Database } from './client.js';
import { precompiled } from './precompiled.js';

let database: Database;
let workspaceId: string;
let names: string[];
beforeAll(async () => {
  database = await openTestDatabase();
  workspaceId = (
    await createWorkspace(openWritePath(database.db).uow, { slug: 'precompiled', name: 'Precompiled' })
  ).workspace.id;
  names = ['North', 'South', 'East'];
  for (const name of names) await createLocation(database.db, workspaceId, { name });
});
afterAll(() => database.close());

// The builder as a plain query too, to hold the precompiled one to the same answers.
const build = (db: Database['db'], workspaceId: string, name: string, limit: number) =>
  db
    .selectFrom('locations')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('name', '!=', name)
    .where('timezone', '=', 'Europe/Berlin')
    .orderBy('name')
    .limit(limit);

describe('precompiled', () => {
  it('answers each call with its own values, as the query built afresh does', async () => {
    const query = precompiled(3, build);
    for (const [name, limit] of [
      ['North', 5],
      ['South', 1],
      ['West', 2],
    ] as const) {
      const expected = await build(database.db, workspaceId, name, limit).execute();
      expect((await query(database.db, workspaceId, name, limit)).rows).toEqual(expected);
      expect(expected.length).toBe(Math.min(limit, names.includes(name) ? 2 : 3));
    }
  });

  it('runs in a transaction on its connection', async () => {
    const query = precompiled(3, build);
    const rows = await database.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('locations')
        .values({ workspace_id: workspaceId, name: 'Inside', timezone: 'Europe/Berlin' })
        .execute();
      return (await query(tx, workspaceId, 'North', 10)).rows;
    });
    expect(rows.map((row) => row.name)).toContain('Inside');
  });

  it('refuses a builder that does not pass an argument on as a value', async () => {
    const query = precompiled(2, (db, workspaceId: string, name: string) =>
      db
        .selectFrom('locations')
        .select('name')
        .where('workspace_id', '=', workspaceId)
        .where('name', '=', `${name}`),
    );
    await expect(query(database.db, workspaceId, 'North')).rejects.toThrow(/argument 1 is not a parameter/);
  });
});
