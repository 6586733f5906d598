import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { Gauge } from 'prom-client';
import { registry } from '../metrics/registry.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { PGliteDialect } from './pglite-dialect.js';
import { startPGliteMaintenance } from './pglite-maintenance.js';
import { PreparingClient } from './prepared-statements.js';
import type { DB } from './schema.js';
import { statementLog } from './statement-recorder.js';

/**
 * The typed query builder. A transaction is a Db too, for reads; what must run inside one takes
 * the branded `Tx` of unit-of-work.ts, which a plain Db does not satisfy.
 */
export type Db = Kysely<DB>;

/** Runs raw SQL (several statements allowed when there are no parameters) on one session. */
export type RawQuery = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Runs fn on one pinned session (needed for session-level advisory locks). */
  session<T>(fn: (query: RawQuery) => Promise<T>): Promise<T>;
  /** True when the store answers a trivial query within PING_TIMEOUT_MS. */
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
  /** PostgreSQL: schema to work in. */
  searchPath?: string;
  /** PGlite in memory: start from this dumpDataDir() snapshot instead of an empty cluster (tests). */
  loadDataDir?: Blob;
  /**
   * An embedded store already open, to use instead of opening one; closed with the Database.
   * Tests hand in one they reset and reuse between files (test/helpers/test-db.ts).
   */
  pglite?: PGlite;
  poolSize?: number;
  /** PostgreSQL: settings of every session of the pool (`-c name=value`). */
  settings?: Record<string, string>;
  /** PostgreSQL: each NOTICE the server sends any session of the pool (tests read Citus's). */
  onNotice?: (notice: { message: string; detail: string | undefined }) => void;
}

// int8 (count(*), sums) as JS numbers: our counts and minor-unit sums stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPGlite(options);
}

/** A ping slower than this counts as down: /health must answer while the store hangs. */
const PING_TIMEOUT_MS = 2_000;
/** A request waits at most this long for a connection, then answers 503 instead of hanging. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Errors that mean "the store cannot be reached right now", not "this request is wrong": a dropped
 * or refused connection, a server shutting down, starting up or out of connections. Requests that
 * meet one answer 503 with Retry-After; workers pause. Matched by code where PostgreSQL or Node
 * gives one, else by pg's own messages (a connection that ended has no code).
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // Class 08: connection exception; 57P01-03: admin/crash shutdown, cannot connect now; 53300: too many connections.
    if (/^08...$/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
    if (NETWORK_CODES.has(code)) return true;
  }
  return UNAVAILABLE_MESSAGES.test(error.message);
}

/**
 * A failure that may not happen again on a retry of the whole transaction: the store went away,
 * a deadlock or serialization failure, a statement cancelled by a timeout. Anything else (a
 * constraint, bad data, a bug) would fail the same way every time.
 */
export function isTransientFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01' || code === '57014' || code === '55P03';
}

/** A deadlock's victim or a serialization failure: the transaction may simply be run again. */
export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT', // a Unix socket path that is gone while the server is down
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection timeout|the database system is (starting up|shutting down|in recovery mode)/i;

// What the pools of this process hold, read at each scrape.
const pools = new Set<pg.Pool>();
new Gauge({
  name: 'kairos_db_pool_connections',
  help: 'PostgreSQL pool: connections open (total), idle, and requests waiting for one (waiting).',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    let total = 0;
    let idle = 0;
    let waiting = 0;
    for (const pool of pools) {
      total += pool.totalCount;
      idle += pool.idleCount;
      waiting += pool.waitingCount;
    }
    this.set({ state: 'total' }, total);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'waiting' }, waiting);
  },
});

/** pg's `options`: the search path and the settings, as `-c` flags. */
function sessionOptions(options: OpenOptions): { options?: string } {
  const settings = {
    ...(options.searchPath ? { search_path: `${options.searchPath},public` } : {}),
    ...options.settings,
  };
  const flags = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`);
  return flags.length > 0 ? { options: flags.join(' ') } : {};
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    Client: PreparingClient,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...sessionOptions(options),
  });
  const { onNotice } = options;
  if (onNotice) {
    pool.on('connect', (client) =>
      client.on('notice', (notice) => onNotice({ message: notice.message ?? '', detail: notice.detail })),
    );
  }
  // A dropped idle connection must not crash the process; the pool discards it and opens a new
  // one on demand, which is how the server recovers by itself once the store is back.
  pool.on('error', () => {});
  pools.add(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: statementLog });
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
    async close() {
      pools.delete(pool);
      await db.destroy();
    },
  };
}

/**
 * Settings of the embedded PostgreSQL, on top of PGlite's own start parameters (they win over the
 * data folder's postgresql.conf, so stores made by older versions get them too):
 * - shared_buffers 32 MB, not initdb's 128 MB: PGlite zero-fills the whole buffer pool on every
 *   start, which took ~0.6 s of CPU (of a 2 s budget for a restart to answer /health) and made all
 *   of it resident at once. The data files are read through the OS page cache, so a buffer miss
 *   costs a copy, not a disk read; the bench data set (~15 MB) fits either way.
 * - max_wal_size 64 MB, not 1 GB: a single-user backend has no checkpointer, so a checkpoint
 *   comes only when the WAL passes this (or from pglite-maintenance.ts's timer), and a restart
 *   after a crash replays everything since the last one (~13 ms per MB).
 */
export const EMBEDDED_SETTINGS = { shared_buffers: '32MB', max_wal_size: '64MB' };

export function embeddedStartParams(): string[] {
  return [
    ...PGlite.defaultStartParams,
    ...Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
}

async function openPGlite(options: OpenOptions): Promise<Database> {
  let lock: DataDirLock | undefined;
  let pglite: PGlite;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    lock = acquireDataDirLock(options.dataDir, options.lockOwner ?? 'process');
    try {
      pglite = await PGlite.create(path.join(options.dataDir, 'pgdata'), {
        extensions: { btree_gist },
        startParams: embeddedStartParams(),
      });
    } catch (error) {
      lock.release();
      throw error;
    }
  } else if (options.pglite) {
    pglite = options.pglite;
  } else {
    const snapshot = options.loadDataDir ? { loadDataDir: options.loadDataDir } : {};
    pglite = await PGlite.create({
      ...snapshot,
      extensions: { btree_gist },
      startParams: embeddedStartParams(),
    });
  }
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite), log: statementLog });
  // A store in a data folder runs for long: it gets autovacuum's work done (pglite-maintenance.ts).
  const maintenance = options.dataDir ? startPGliteMaintenance(db) : undefined;
  // Statistics before the first query: a plan made without them can be quadratic (see there).
  await maintenance?.analyzeStale();
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
    // Straight to PGlite, not behind the queue of Kysely transactions: a health probe waits for
    // at most the one statement running, never for the work queued (it took 8.3 s under load).
    ping: () => (closed ? Promise.resolve(false) : pingPGlite(pglite)),
    async close() {
      if (closed) return;
      closed = true;
      maintenance?.stop();
      await db.destroy();
      await pglite.close();
      lock?.release();
    },
  };
}

async function pingPGlite(pglite: PGlite): Promise<boolean> {
  try {
    await pglite.query('select 1');
    return true;
  } catch (error) {
    // Inside another caller's failed transaction the engine still answered.
    return (error as { code?: string }).code === '25P02';
  }
}

async function pingDb(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
  });
  const query = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
