import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { Clock } from '../platform/http/types.js';
import { PARTITION_COUNT } from './deliveries.repository.js';

/**
 * This process's worker id unless one is given. Workers of one process share it, and with it
 * their partitions: two of them may claim in one workspace at once, which the claim itself makes
 * safe (a row is claimed by one statement only). Distinct ids split the partitions.
 */
export const PROCESS_WORKER_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** A lease's life; renewed every third of it, so a live worker keeps its partitions. */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * The outbox partitions one delivery worker holds (issue 17.3). Each worker beats a heartbeat in
 * `delivery_workers` and aims for ceil(partitions / live workers) leases in `worker_leases`: it
 * takes free or expired ones up to that share and gives back what exceeds it, so a worker that
 * joins gets its share within one renewal and a worker that dies (no release) leaves its leases
 * to run out, after which others take them.
 *
 * The leases spread the work; they are not what keeps a delivery from being sent twice (each
 * delivery's own claim does that), so a lease lost mid-round costs nothing but a repeat poll.
 */
export class PartitionLeases {
  private held: number[] = [];
  private renewAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly workerId: string = PROCESS_WORKER_ID,
    private readonly leaseMs: number = DEFAULT_LEASE_MS,
  ) {}

  /** The partitions held now, renewed (and rebalanced) when a third of the lease has passed. */
  async current(): Promise<number[]> {
    if (this.clock.now() >= this.renewAt) await this.renew();
    return this.held;
  }

  /** Heartbeat, renew, then take or give back leases to reach this worker's fair share. */
  async renew(): Promise<number[]> {
    const now = this.clock.now();
    const at = new Date(now);
    const until = new Date(now + this.leaseMs);
    const { db, workerId } = this;
    await db
      .insertInto('delivery_workers')
      .values({ id: workerId, alive_until: until })
      .onConflict((oc) => oc.column('id').doUpdateSet({ alive_until: until }))
      .execute();
    await db.deleteFrom('delivery_workers').where('alive_until', '<=', at).execute();
    const { live } = await db
      .selectFrom('delivery_workers')
      .select(sql<number>`count(*)::int`.as('live'))
      .executeTakeFirstOrThrow();
    const share = Math.ceil(PARTITION_COUNT / Math.max(1, live));

    const mine = (
      await db
        .updateTable('worker_leases')
        .set({ lease_until: until })
        .where('holder', '=', workerId)
        .returning('partition')
        .execute()
    ).map((row) => row.partition);
    let held = mine;
    if (mine.length > share) {
      const extra = mine.slice(share);
      await db
        .updateTable('worker_leases')
        .set({ holder: null, lease_until: null })
        .where('holder', '=', workerId)
        .where('partition', 'in', extra)
        .execute();
      held = mine.slice(0, share);
    } else if (mine.length < share) {
      const taken = await sql<{ partition: number }>`
        UPDATE worker_leases SET holder = ${workerId}, lease_until = ${until}
        WHERE partition IN (
          SELECT partition FROM worker_leases
          WHERE holder IS NULL OR lease_until <= ${at}
          ORDER BY random()
          LIMIT ${share - mine.length}
          FOR UPDATE SKIP LOCKED)
        AND (holder IS NULL OR lease_until <= ${at})
        RETURNING partition`.execute(db);
      held = [...mine, ...taken.rows.map((row) => row.partition)];
    }
    this.held = held.sort((a, b) => a - b);
    this.renewAt = now + this.leaseMs / 3;
    return this.held;
  }

  /** On a clean stop: the partitions are free at once instead of after the lease runs out. */
  async release(): Promise<void> {
    await this.db
      .updateTable('worker_leases')
      .set({ holder: null, lease_until: null })
      .where('holder', '=', this.workerId)
      .execute();
    await this.db.deleteFrom('delivery_workers').where('id', '=', this.workerId).execute();
    this.held = [];
    this.renewAt = Number.NEGATIVE_INFINITY;
  }
}
