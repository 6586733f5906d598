import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { Database, RawQuery } from '../../src/platform/db/client.js';
import { loadMigrations, migrate } from '../../src/platform/db/migrate.js';
import { adminQuery, databaseUrlOf } from './test-db.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite cluster (dumpDataDir), for openTestDatabase to restore. */
    pgliteSnapshot: string;
    /** The same cluster as a DATA_DIR, for tests that run the server on a copy (migratedDataDir). */
    pgliteDataDir: string;
    /** With TEST_DATABASE_URL: the migrated database each test file's database is copied from. */
    postgresTemplate: string;
  }
}

/**
 * Migrations run here, once per test run, never in a test file: each file starts from a copy
 * (test/helpers/test-db.ts). Restoring the PGlite snapshot skips initdb and the migrations, the
 * two costly parts of a new embedded store; copying a template database skips the migrations on
 * PostgreSQL.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const snapshot = await migratedPGliteSnapshot();
  project.provide('pgliteSnapshot', snapshot);
  project.provide('pgliteDataDir', await migratedPGliteDataDir(snapshot));
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return undefined;
  // Tests that make their own schema in this database (migrate.test.ts) find the extension in public.
  await adminQuery(url, 'CREATE EXTENSION IF NOT EXISTS btree_gist');
  const template = `kairos_test_${randomBytes(4).toString('hex')}`;
  await adminQuery(url, `CREATE DATABASE ${template}`);
  // One plain client, ended here: no pool whose sessions could outlive the set-up.
  const client = new pg.Client({ connectionString: databaseUrlOf(url, template) });
  await client.connect();
  try {
    await migrate(sessionOf(async (text, params) => (await client.query(text, params)).rows));
  } finally {
    await client.end();
  }
  await untilNoSessionOn(url, template);
  project.provide('postgresTemplate', template);
  return async () => {
    // Copies left by a file that failed before closing, then the template itself.
    const rows = await adminQuery(url, 'SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${template}%`,
    ]);
    for (const row of rows) await adminQuery(url, `DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
  };
}

/**
 * The snapshot is kept in the temp folder under a name made of the migrations and the PGlite
 * version, so a run after an unchanged one does not even migrate once; any change to either
 * makes a new one.
 */
async function migratedPGliteSnapshot(): Promise<string> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const pgliteVersion = JSON.parse(
    readFileSync(path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  ).version as string;
  const hash = createHash('sha256').update(pgliteVersion);
  for (const migration of loadMigrations()) hash.update(migration.version).update(migration.sql);
  const dir = path.join(tmpdir(), 'kairos-test-snapshots');
  const file = path.join(dir, `${hash.digest('hex').slice(0, 16)}.tar`);
  if (existsSync(file)) return file;

  const pglite = await PGlite.create({ extensions: { btree_gist } });
  try {
    // PGlite is one session already.
    await migrate(
      sessionOf(async (text, params) =>
        params?.length
          ? (await pglite.query<Record<string, unknown>>(text, params)).rows
          : ((await pglite.exec(text)).at(-1)?.rows ?? []),
      ),
    );
    const tarball = await pglite.dumpDataDir('none');
    mkdirSync(dir, { recursive: true });
    // Written aside and renamed: a concurrent run never reads half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
    renameSync(partial, file);
    // Snapshots of older migrations, a day untouched, belong to no run any more.
    for (const name of readdirSync(dir)) {
      const other = path.join(dir, name);
      if (!other.startsWith(file) && Date.now() - statSync(other).mtimeMs > 86_400_000)
        rmSync(other, { recursive: true, force: true });
    }
    return file;
  } finally {
    await pglite.close();
  }
}

/**
 * The snapshot restored into a DATA_DIR (the layout the server opens: <dir>/pgdata), next to the
 * snapshot and under its name, so it is made once per set of migrations. A server started on a
 * copy skips initdb and the migrations: ~2.5 s per start (test/helpers/server-process.ts).
 */
async function migratedPGliteDataDir(snapshot: string): Promise<string> {
  const dir = `${snapshot}.datadir`;
  if (existsSync(dir)) return dir;
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const pglite = await PGlite.create(path.join(partial, 'pgdata'), {
    loadDataDir: new Blob([readFileSync(snapshot)]),
    extensions: { btree_gist },
  });
  await pglite.close();
  try {
    renameSync(partial, dir);
  } catch (error) {
    // Another run made it meanwhile.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  return dir;
}

/** migrate() uses only `session`: one connection, held for the whole run of migrations. */
function sessionOf(query: RawQuery): Database {
  const store: Pick<Database, 'session'> = { session: (fn) => fn(query) };
  return store as Database;
}

/**
 * CREATE DATABASE ... TEMPLATE refuses while a client is connected to the template (an
 * autovacuum worker it stops itself), and a closed pool's backends take a moment to leave.
 */
async function untilNoSessionOn(url: string, name: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const rows = await adminQuery(
      url,
      'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = $2',
      [name, 'client backend'],
    );
    if (rows[0]!.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sessions still connected to ${name}`);
}
