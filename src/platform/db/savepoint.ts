import { sql } from 'kysely';
import type { Tx } from './unit-of-work.js';

/**
 * Runs `work` inside a savepoint of the open transaction: when it throws, what it wrote is rolled
 * back, the transaction stays usable for the rest of its work, and the error goes to the caller.
 */
export async function withSavepoint<T>(tx: Tx, name: string, work: () => Promise<T>): Promise<T> {
  await sql`SAVEPOINT ${sql.id(name)}`.execute(tx);
  try {
    const result = await work();
    await sql`RELEASE SAVEPOINT ${sql.id(name)}`.execute(tx);
    return result;
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT ${sql.id(name)}`.execute(tx);
    throw error;
  }
}
