import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { PGliteDialect } from './pglite-dialect.js';
import { PreparingClient } from './prepared-statements.js';
import type { DB } from './schema.js';

/** The typed query builder; a Transaction is a Db too, so services take `Db` and get a tx. */
export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;

/** Runs raw SQL (several statements allowed when there are no parameters) on one session. */
export type RawQuery = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs fn on one pinned session (needed for session-level advisory locks). */
  session<T>(fn: (query: RawQuery) => Promise<T>): Promise<T>;
  /** True when the store answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://... ; when absent the embedded PGlite store is used. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; undefined = in memory (tests). */
  dataDir?: string | undefined;
  /** Who holds the data folder lock (shown to a second process that finds it taken). */
  lockOwner?: string;
  /** PostgreSQL: schema to work in (tests use one schema per file). */
  searchPath?: string;
  poolSize?: number;
}

// int8 (count(*), sums) as JS numbers: our counts and minor-unit sums stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPGlite(options);
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    Client: PreparingClient,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath},public` } : {}),
  });
  // A dropped idle connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'postgres',
    db,
    async session(fn) {
      const client = await pool.connect();
      try {
        return await fn(async (text, params) => {
          const result = await client.query(text, params);
          const last = Array.isArray(result) ? result[result.length - 1] : result;
          return (last?.rows ?? []) as Record<string, unknown>[];
        });
      } finally {
        client.release();
      }
    },
    ping: () => pingDb(db),
    close: () => db.destroy(),
  };
}

async function openPGlite(options: OpenOptions): Promise<Database> {
  let lock: DataDirLock | undefined;
  let pglite: PGlite;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    lock = acquireDataDirLock(options.dataDir, options.lockOwner ?? 'process');
    try {
      pglite = await PGlite.create(path.join(options.dataDir, 'pgdata'), { extensions: { btree_gist } });
    } catch (error) {
      lock.release();
      throw error;
    }
  } else {
    pglite = await PGlite.create({ extensions: { btree_gist } });
  }
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  let closed = false;
  return {
    kind: 'pglite',
    db,
    async session(fn) {
      // PGlite is one session already; serialise through Kysely's connection so no query interleaves.
      return db.connection().execute(() =>
        fn(async (text, params) => {
          if (!params || params.length === 0) {
            const results = await pglite.exec(text);
            return (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[];
          }
          return (await pglite.query<Record<string, unknown>>(text, params)).rows;
        }),
      );
    },
    ping: () => (closed ? Promise.resolve(false) : pingDb(db)),
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      await pglite.close();
      lock?.release();
    },
  };
}

async function pingDb(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
