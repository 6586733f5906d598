import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers/test-db.js';
import type { Database } from '../db/client.js';
import { seedDemoIfEmpty } from './demo.js';
import { createWorkspace } from './workspaces.service.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('createWorkspace', () => {
  it('commits the workspace, its statuses, its key and the fill together, or none of them', async () => {
    await expect(
      createWorkspace(database.db, { slug: 'half-made', name: 'Half' }, 'default', async (tx, workspace) => {
        await tx
          .insertInto('locations')
          .values({ workspace_id: workspace.id, name: 'A', timezone: 'UTC', lat: null, lng: null })
          .execute();
        throw new Error('seeding failed');
      }),
    ).rejects.toThrow('seeding failed');
    const rows = await database.db
      .selectFrom('workspaces')
      .select('id')
      .where('slug', '=', 'half-made')
      .execute();
    expect(rows).toEqual([]);
    expect(await database.db.selectFrom('locations').select('id').execute()).toEqual([]);
    expect(await database.db.selectFrom('api_keys').select('id').execute()).toEqual([]);
  });

  it('answers 422 naming slug for a taken or malformed slug', async () => {
    await createWorkspace(database.db, { slug: 'taken', name: 'First' });
    await expect(createWorkspace(database.db, { slug: 'taken', name: 'Second' })).rejects.toMatchObject({
      statusCode: 422,
      errors: { slug: [expect.stringContaining('already taken')] },
    });
    await expect(createWorkspace(database.db, { slug: 'Not OK!', name: 'X' })).rejects.toMatchObject({
      statusCode: 422,
      errors: { slug: [expect.any(String)] },
    });
  });

  it('seeds the demo only into an empty store', async () => {
    const fresh = await openTestDatabase();
    try {
      const created = await seedDemoIfEmpty(fresh.db, Date.parse('2026-09-01T08:00:00Z'));
      expect(created?.workspace.slug).toBe('demo');
      const locations = await fresh.db.selectFrom('locations').select('id').execute();
      expect(locations.length).toBeGreaterThanOrEqual(2);
      expect(await seedDemoIfEmpty(fresh.db, Date.now())).toBeUndefined();
    } finally {
      await fresh.close();
    }
  });
});
