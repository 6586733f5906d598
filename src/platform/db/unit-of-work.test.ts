import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/helpers/test-db.js';
import type { Database } from './client.js';
import { UnitOfWork } from './unit-of-work.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await sql`CREATE TABLE uow_attempts (n int NOT NULL)`.execute(database.db);
});
afterAll(() => database.close());

/** What PostgreSQL's driver throws when the database ends a transaction with `code`. */
function databaseError(code: string): Error {
  return Object.assign(new Error(`ended by the database (${code})`), { code });
}

const rows = async () =>
  (await sql<{ n: number }>`SELECT n FROM uow_attempts ORDER BY n`.execute(database.db)).rows.map((r) => r.n);

describe('a unit of work the database ends as a conflict', () => {
  const invalidated: string[][] = [];

  it('runs a deadlock victim or a serialization failure again; only the attempt that commits is kept', async () => {
    const unit = new UnitOfWork(database.db, { invalidate: async (ids) => void invalidated.push([...ids]) });
    for (const code of ['40P01', '40001']) {
      await sql`DELETE FROM uow_attempts`.execute(database.db);
      let attempts = 0;
      const answer = await unit.run('w1', async (tx) => {
        attempts += 1;
        await sql`INSERT INTO uow_attempts VALUES (${attempts})`.execute(tx);
        if (attempts < 3) throw databaseError(code);
        return 'committed';
      });
      expect(answer).toBe('committed');
      expect(attempts).toBe(3);
      // The failed attempts rolled back: only the third's row is there.
      expect(await rows()).toEqual([3]);
    }
    expect(invalidated).toEqual([['w1'], ['w1']]);
  });

  it('gives up after three attempts and hands the conflict to the caller', async () => {
    const unit = new UnitOfWork(database.db, { invalidate: async () => {} });
    await sql`DELETE FROM uow_attempts`.execute(database.db);
    let attempts = 0;
    const run = unit.runJoined('w1', async (tx) => {
      attempts += 1;
      await sql`INSERT INTO uow_attempts VALUES (${attempts})`.execute(tx);
      throw databaseError('40P01');
    });
    await expect(run).rejects.toMatchObject({ code: '40P01' });
    expect(attempts).toBe(3);
    expect(await rows()).toEqual([]);
  });

  it('never runs again what failed for another reason', async () => {
    const unit = new UnitOfWork(database.db, { invalidate: async () => {} });
    let attempts = 0;
    const run = unit.run('w1', async () => {
      attempts += 1;
      throw databaseError('23505');
    });
    await expect(run).rejects.toMatchObject({ code: '23505' });
    expect(attempts).toBe(1);
  });
});
