import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/client.js';

/**
 * A fresh, migrated store for one test file, copied from what the global set-up migrated once
 * (test/helpers/global-setup.ts): in-memory PGlite restored from the migrated snapshot by default;
 * with TEST_DATABASE_URL, a database of its own made from the migrated template database and
 * dropped again on close.
 */
export async function openTestDatabase(options: { poolSize?: number } = {}): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const snapshot = new Blob([await readFile(inject('pgliteSnapshot'))]);
    return openDatabase({ loadDataDir: snapshot });
  }
  const name = `${inject('postgresTemplate')}_${randomBytes(5).toString('hex')}`;
  await createDatabaseFrom(url, name, inject('postgresTemplate'));
  const database = await openDatabase({
    databaseUrl: databaseUrlOf(url, name),
    poolSize: options.poolSize ?? 20,
  });
  return {
    ...database,
    async close() {
      await database.close();
      await adminQuery(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** `url` pointing at database `name` on the same server. */
export function databaseUrlOf(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

/**
 * CREATE DATABASE ... TEMPLATE copies the migrated template (WAL_LOG: block by block, no
 * checkpoint, so many files can copy at once). PostgreSQL refuses while any session is connected
 * to the template; the set-up waited for its own to leave, and this retries briefly should a
 * closing session still linger.
 */
async function createDatabaseFrom(url: string, name: string, template: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await adminQuery(url, `CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY WAL_LOG`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export async function adminQuery(url: string, text: string, params?: unknown[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}
