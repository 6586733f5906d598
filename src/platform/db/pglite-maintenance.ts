import { sql } from 'kysely';
import type { Db } from './client.js';

/**
 * What PostgreSQL's autovacuum does on a server, for the embedded store, which has no
 * autovacuum worker (issue 18 point 7). Without it the tables that churn — the outbox (every
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
 */
export const CHURNING_TABLES = [
  'outbox_events',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'idempotency_keys',
  // Every email is updated when claimed and when sent (src/notifications).
  'mail_messages',
];
const INTERVAL_MS = 60_000;
/** The first pass comes soon after start, so a store opened on existing data gets statistics. */
const FIRST_PASS_MS = 2_000;

export interface Maintenance {
  /** One pass now (tests, and the timer). */
  runOnce(): Promise<void>;
  stop(): void;
}

export function startPGliteMaintenance(
  db: Db,
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): Maintenance {
  let stopped = false;
  let running: Promise<void> | undefined;
  const runOnce = () =>
    db.connection().execute(async (session) => {
      if (stopped) return;
      const { rows } = await sql<{ name: string }>`
        SELECT name FROM unnest(${CHURNING_TABLES}::text[]) AS name WHERE to_regclass(name) IS NOT NULL`.execute(
        session,
      );
      if (rows.length > 0)
        await sql.raw(`VACUUM (ANALYZE) ${rows.map((row) => row.name).join(', ')}`).execute(session);
      if (!stopped) await sql`ANALYZE`.execute(session);
    });
  const tick = () => {
    if (running) return;
    running = runOnce()
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
  first.unref();
  timer.unref();
  return {
    runOnce,
    stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
