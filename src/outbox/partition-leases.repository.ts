import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';

/**
 * The statements of the workers' partition leases (partition-leases.service.ts):
 * `delivery_workers` holds each live worker's heartbeat, `worker_leases` one row per outbox
 * partition with its holder. Neither is a tenant table: they are the workers' own bookkeeping.
 */

/** The worker's heartbeat: it counts as live until `aliveUntil`. */
export async function beatWorkerHeartbeat(db: Db, workerId: string, aliveUntil: Date): Promise<void> {
  await db
    .insertInto('delivery_workers')
    .values({ id: workerId, alive_until: aliveUntil })
    .onConflict((oc) => oc.column('id').doUpdateSet({ alive_until: aliveUntil }))
    .execute();
}

/** Forgets the workers whose heartbeat ran out by `at`. */
export async function deleteDeadWorkers(db: Db, at: Date): Promise<void> {
  await db.deleteFrom('delivery_workers').where('alive_until', '<=', at).execute();
}

export async function countLiveWorkers(db: Db): Promise<number> {
  const { live } = await db
    .selectFrom('delivery_workers')
    .select(sql<number>`count(*)::int`.as('live'))
    .executeTakeFirstOrThrow();
  return live;
}

/** Extends every lease the worker holds to `until`; answers their partitions. */
export async function renewHeldLeases(db: Db, workerId: string, until: Date): Promise<number[]> {
  const rows = await db
    .updateTable('worker_leases')
    .set({ lease_until: until })
    .where('holder', '=', workerId)
    .returning('partition')
    .execute();
  return rows.map((row) => row.partition);
}

/** Up to `count` free or expired leases, picked at random, taken by the worker until `until`. */
export async function takeFreeLeases(
  db: Db,
  workerId: string,
  at: Date,
  until: Date,
  count: number,
): Promise<number[]> {
  const taken = await sql<{ partition: number }>`
    UPDATE worker_leases SET holder = ${workerId}, lease_until = ${until}
    WHERE partition IN (
      SELECT partition FROM worker_leases
      WHERE holder IS NULL OR lease_until <= ${at}
      ORDER BY random()
      LIMIT ${count}
      FOR UPDATE SKIP LOCKED)
    AND (holder IS NULL OR lease_until <= ${at})
    RETURNING partition`.execute(db);
  return taken.rows.map((row) => row.partition);
}

/** Gives back the worker's leases: those of `partitions` when given, else all of them. */
export async function releaseLeases(db: Db, workerId: string, partitions?: number[]): Promise<void> {
  let query = db
    .updateTable('worker_leases')
    .set({ holder: null, lease_until: null })
    .where('holder', '=', workerId);
  if (partitions) query = query.where('partition', 'in', partitions);
  await query.execute();
}

/** A clean stop: the worker no longer counts as live. */
export async function deleteWorker(db: Db, workerId: string): Promise<void> {
  await db.deleteFrom('delivery_workers').where('id', '=', workerId).execute();
}
