import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';

/**
 * A fresh, migrated store for one test file: in-memory PGlite by default; with TEST_DATABASE_URL,
 * a new schema on that PostgreSQL, dropped again on close.
 */
export async function openTestDatabase(options: { poolSize?: number } = {}): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const database = await openDatabase({});
    await migrate(database);
    return database;
  }
  const schema = `test_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  await adminQuery(url, `CREATE SCHEMA ${schema}`);
  const database = await openDatabase({
    databaseUrl: url,
    searchPath: schema,
    poolSize: options.poolSize ?? 20,
  });
  await migrate(database);
  return {
    ...database,
    async close() {
      await database.close();
      await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
