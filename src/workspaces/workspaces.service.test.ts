import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers/test-db.js';
import type { Database } from '../platform/db/client.js';
import { verifyPassword } from '../users/passwords.js';
import { openWritePath } from '../write-path.js';
import { seedDemoIfEmpty } from './demo.service.js';
import { createWorkspace } from './workspaces.service.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

describe('createWorkspace', () => {
  it('commits the workspace, its statuses, its key and the fill together, or none of them', async () => {
    await expect(
      createWorkspace(
        openWritePath(database.db).uow,
        { slug: 'half-made', name: 'Half' },
        'default',
        async (tx, workspace) => {
          await tx
            .insertInto('locations')
            .values({ workspace_id: workspace.id, name: 'A', timezone: 'UTC', lat: null, lng: null })
            .execute();
          throw new Error('seeding failed');
        },
      ),
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
    await createWorkspace(openWritePath(database.db).uow, { slug: 'taken', name: 'First' });
    await expect(
      createWorkspace(openWritePath(database.db).uow, { slug: 'taken', name: 'Second' }),
    ).rejects.toMatchObject({
      statusCode: 422,
      errors: { slug: [expect.stringContaining('already taken')] },
    });
    await expect(
      createWorkspace(openWritePath(database.db).uow, { slug: 'Not OK!', name: 'X' }),
    ).rejects.toMatchObject({
      statusCode: 422,
      errors: { slug: [expect.any(String)] },
    });
  });

  it('seeds the demo only into an empty store', async () => {
    const fresh = await openTestDatabase();
    try {
      const created = await seedDemoIfEmpty(fresh.db, Date.parse('2026-09-01T08:00:00Z'));
      expect(created?.workspace.slug).toBe('demo');
      // The first user: the demo's owner, whose one-time password must be replaced at sign-in.
      expect(created?.owner.email).toBe('owner@kairos.example');
      const owner = await fresh.db
        .selectFrom('users as u')
        .innerJoin('memberships as m', 'm.user_id', 'u.id')
        .select(['u.must_change_password', 'm.role', 'm.workspace_id', 'u.password_hash'])
        .executeTakeFirstOrThrow();
      expect(owner).toMatchObject({
        must_change_password: true,
        role: 'owner',
        workspace_id: created?.workspace.id,
      });
      expect(await verifyPassword(created?.owner.oneTimePassword ?? '', owner.password_hash)).toBe(true);
      const locations = await fresh.db.selectFrom('locations').select('id').execute();
      expect(locations.length).toBeGreaterThanOrEqual(2);
      expect(await seedDemoIfEmpty(fresh.db, Date.now())).toBeUndefined();
    } finally {
      await fresh.close();
    }
  });
});
