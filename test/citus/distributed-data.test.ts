import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/client.js';

/**
 * `db distribute` on a database that already holds a workspace (scripts/test-citus.sh makes one
 * with the demo data between `db migrate` and `db distribute`, as a first start of Kairos does):
 * its rows are in the shards, read back through the distributed tables, and the coordinator's
 * own copies of the tenant tables were emptied.
 */
const url = process.env.TEST_CITUS_URL;
if (!url) throw new Error('the Citus suite runs with TEST_CITUS_URL (npm run test:citus)');
let database: Database;

beforeAll(async () => {
  database = await openDatabase({ databaseUrl: url, poolSize: 2 });
});
afterAll(() => database?.close());

describe('a workspace made before db distribute', () => {
  it('is read back from the shards, with the demo studio in it', async () => {
    const rows = await database.session(async (query) => {
      const [workspace] = await query(`SELECT id FROM workspaces WHERE slug = 'before-distribute'`);
      // Each count names the workspace by value: Citus routes it to the workspace's shard.
      return query(
        `SELECT (SELECT count(*) FROM locations WHERE workspace_id = $1)::int AS locations,
                (SELECT count(*) FROM staffers WHERE workspace_id = $1)::int AS staffers,
                (SELECT count(*) FROM api_keys WHERE workspace_id = $1)::int AS keys`,
        [workspace?.id],
      );
    });
    // The demo studio: two locations, six staffers, the workspace's first API key.
    expect(rows).toEqual([{ locations: 2, staffers: 6, keys: 1 }]);
  });

  it("left nothing in the coordinator's own copies of the tenant tables", async () => {
    const local = await database.session((query) =>
      query(
        // The coordinator's table itself, not the shards a query of it is routed to.
        `SELECT pg_relation_size('locations')::int AS locations, pg_relation_size('staffers')::int AS staffers`,
      ),
    );
    expect(local).toEqual([{ locations: 0, staffers: 0 }]);
  });
});
