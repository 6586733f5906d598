import { sql } from 'kysely';
import type { Db } from './client.js';

/**
 * What PostgreSQL's autovacuum does on a server, for the embedded store, which has no
 * autovacuum worker. Without it the tables that churn — the outbox (every
 * event is updated when dispatched), deliveries and their attempts (updated per try), idempotency
 * keys — keep every dead row version and, worse, every dead entry in their indexes: the worker's
 * "next pending" scans walk further each minute and p95 under constant load grew from 223 to
 * 622 ms in ten minutes. And with no statistics at all the planner guesses one row per table and
 * picks nested loops that are quadratic in the data (a staffer list took seconds per page at 500
 * staffers).
 *
 * Every interval: VACUUM (ANALYZE) the churning tables, then ANALYZE the rest (a sample per
 * table: cheap). The pass takes the one PGlite session through Kysely's driver, so it waits for
 * an open transaction to end (VACUUM cannot run inside one) and other queries wait for it.
 *
 * Statistics cannot wait a minute: a list planned on a table without them took minutes at 1,000
 * staffers (the bench's first request after a bulk load), and held the one session meanwhile.
 * So the store analyzes the tables that have none before it is handed out (analyzeStale, from
 * client.ts), and every STATS_CHECK_MS the tables changed past autovacuum's default threshold
 * (50 rows + 10% of the table) since their last ANALYZE: a catalog read when nothing changed.
 *
 * What a pass allocates stays: PostgreSQL frees it, but PGlite's WebAssembly memory never shrinks,
 * so the largest pass so far sets the process's resident size. ANALYZE copies a sample of 300 x
 * the statistics target rows (30,000 at the default of 100) with their full width, and the queue
 * tables carry wide rows (an outbox event's payload, an idempotency key's stored answer: ~1.5 kB
 * each) and grow by thousands of rows an hour: the server's RSS grew ~4 MB a minute under steady
 * writes until that sample was full (~50 MB later). Those tables are read only by their indexes on
 * narrow columns, so they are analyzed with a target of CHURNING_STATISTICS_TARGET: at most 3,000
 * rows, ~5 MB, whatever their size. The other tables keep the default.
 *
 * And checkpoints. PGlite runs PostgreSQL as a single-user backend, which has no checkpointer:
 * nothing checkpoints on a timer, only when the WAL passes max_wal_size (1 GB by default) or the
 * store closes. After a crash (`kill -9`, a power cut) the next start replays all the WAL written
 * since: ~13 ms per MB on a 2-core machine, so a server that had written for an hour took seconds
 * longer to answer /health. Every CHECKPOINT_MS, when WAL was written since the last checkpoint,
 * the pass checkpoints; a restart after a crash then replays at most that much time of writes.
 */
export const CHURNING_TABLES = [
  'outbox_events',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'idempotency_keys',
  // Every email is updated when claimed and when sent (src/notifications).
  'mail_messages',
];
/** Statistics target (sample: 300 x this many rows) of the churning tables' ANALYZE. */
export const CHURNING_STATISTICS_TARGET = 10;
const INTERVAL_MS = 60_000;
const STATS_CHECK_MS = 10_000;
const CHECKPOINT_MS = 15_000;
/** Less WAL than this since the last checkpoint is not worth one (an idle store writes a little). */
const CHECKPOINT_MIN_WAL_BYTES = 256 * 1024;
/** The first pass comes soon after start, so a store opened on existing data gets statistics. */
const FIRST_PASS_MS = 2_000;

export interface Maintenance {
  /** One pass now (tests, and the timer). */
  runOnce(): Promise<void>;
  /** ANALYZE the tables without statistics or changed past the threshold; their names. */
  analyzeStale(): Promise<string[]>;
  /** CHECKPOINT when WAL was written since the last one; the WAL bytes it covered, else 0. */
  checkpointIfDue(): Promise<number>;
  stop(): void;
}

/** Tables never analyzed (reltuples < 0), or changed by more than 50 rows + 10% since. */
async function analyzeStaleTables(session: Db): Promise<string[]> {
  // This session's own changes reach the counters when it goes idle, at most once a second: ask
  // for them now, so the check below sees the writes that ran just before it.
  await sql`SELECT pg_stat_force_next_flush()`.execute(session);
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
       AND (c.reltuples < 0 OR coalesce(s.n_mod_since_analyze, 0) > 50 + 0.1 * greatest(c.reltuples, 0))
     ORDER BY c.relname`.execute(session);
  if (rows.length === 0) return [];
  const names = rows.map((row) => row.name);
  await analyze(session, names);
  return names;
}

const quoted = (names: string[]) => names.map((name) => `"${name.replaceAll('"', '""')}"`).join(', ');

/**
 * ANALYZE (or VACUUM (ANALYZE), `vacuum`) of `names`: the churning ones with a small sample, the
 * rest with the default. Runs on the maintenance's own hold of the one session, so the session
 * setting cannot leak into a request's query; it is reset even when the command fails.
 */
async function analyze(session: Db, names: string[], vacuum = false): Promise<void> {
  const churning = names.filter((name) => CHURNING_TABLES.includes(name));
  const rest = names.filter((name) => !CHURNING_TABLES.includes(name));
  const command = vacuum ? 'VACUUM (ANALYZE)' : 'ANALYZE';
  if (churning.length > 0) {
    await sql.raw(`SET default_statistics_target = ${CHURNING_STATISTICS_TARGET}`).execute(session);
    try {
      await sql.raw(`${command} ${quoted(churning)}`).execute(session);
    } finally {
      await sql`RESET default_statistics_target`.execute(session);
    }
  }
  if (rest.length > 0) await sql.raw(`${command} ${quoted(rest)}`).execute(session);
}

/** WAL written since the redo point of the last checkpoint: what a crash now would replay. */
async function walSinceCheckpoint(session: Db): Promise<number> {
  const { rows } = await sql<{ bytes: string | number }>`
    SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), (SELECT redo_lsn FROM pg_control_checkpoint())) AS bytes`.execute(
    session,
  );
  return Number(rows[0]?.bytes ?? 0);
}

async function checkpointIfDue(session: Db): Promise<number> {
  const bytes = await walSinceCheckpoint(session);
  if (bytes < CHECKPOINT_MIN_WAL_BYTES) return 0;
  await sql`CHECKPOINT`.execute(session);
  return bytes;
}

export function startPGliteMaintenance(
  db: Db,
  options: {
    intervalMs?: number;
    statsCheckMs?: number;
    checkpointMs?: number;
    onError?: (error: unknown) => void;
  } = {},
): Maintenance {
  let stopped = false;
  let running: Promise<void> | undefined;
  const runOnce = () =>
    db.connection().execute(async (session) => {
      if (stopped) return;
      const { rows } = await sql<{ name: string }>`
        SELECT c.relname AS name
          FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
         ORDER BY c.relname`.execute(session);
      const tables = rows.map((row) => row.name);
      await analyze(
        session,
        tables.filter((name) => CHURNING_TABLES.includes(name)),
        true,
      );
      if (!stopped)
        await analyze(
          session,
          tables.filter((name) => !CHURNING_TABLES.includes(name)),
        );
    });
  const analyzeStale = () =>
    db.connection().execute(async (session) => (stopped ? [] : analyzeStaleTables(session)));
  const checkpoint = () =>
    db.connection().execute(async (session) => (stopped ? 0 : checkpointIfDue(session)));
  const tick = (pass: () => Promise<unknown> = runOnce) => {
    if (running) return;
    running = pass()
      .then(() => undefined)
      .catch((error) => {
        // A store closing under the pass, or a pass that could not run, is not worth a crash.
        if (!stopped) options.onError?.(error);
      })
      .finally(() => {
        running = undefined;
      });
  };
  const first = setTimeout(tick, FIRST_PASS_MS);
  const timer = setInterval(tick, options.intervalMs ?? INTERVAL_MS);
  const statsTimer = setInterval(() => tick(analyzeStale), options.statsCheckMs ?? STATS_CHECK_MS);
  const checkpointTimer = setInterval(() => tick(checkpoint), options.checkpointMs ?? CHECKPOINT_MS);
  first.unref();
  timer.unref();
  statsTimer.unref();
  checkpointTimer.unref();
  return {
    runOnce,
    analyzeStale,
    checkpointIfDue: checkpoint,
    stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      clearInterval(statsTimer);
      clearInterval(checkpointTimer);
    },
  };
}
