import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../platform/db/client.js';
import type { Clock } from '../platform/http/types.js';
import {
  beatWorkerHeartbeat,
  countLiveWorkers,
  deleteDeadWorkers,
  deleteWorker,
  releaseLeases,
  renewHeldLeases,
  takeFreeLeases,
} from './partition-leases.repository.js';
import { PARTITION_COUNT } from './partitions.js';

/**
 * This process's worker id unless one is given. Workers of one process share it, and with it
 * their partitions: two of them may claim in one workspace at once, which the claim itself makes
 * safe (a row is claimed by one statement only). Distinct ids split the partitions.
 */
export const PROCESS_WORKER_ID = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;

/** A lease's life; renewed every third of it, so a live worker keeps its partitions. */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * The outbox partitions one worker holds. Each worker beats a heartbeat in
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
  private renewing: Promise<number[]> | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly workerId: string = PROCESS_WORKER_ID,
    private readonly leaseMs: number = DEFAULT_LEASE_MS,
  ) {}

  /**
   * The partitions held now, renewed (and rebalanced) when a third of the lease has passed. The
   * webhook and mail workers of a process share one instance and ask at the same moments (at
   * start, and every renewal): they share one renewal too. Two at once raced: the second took no
   * free partition (the first had them all) and, finishing last, left the process holding none
   * until the next renewal, 10 s on, so a process's first emails waited 10 s.
   */
  async current(): Promise<number[]> {
    if (this.clock.now() >= this.renewAt) await this.renew();
    return this.held;
  }

  /** Heartbeat, renew, then take or give back leases to reach this worker's fair share. */
  renew(): Promise<number[]> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renewOnce(): Promise<number[]> {
    const now = this.clock.now();
    const at = new Date(now);
    const until = new Date(now + this.leaseMs);
    const { db, workerId } = this;
    await beatWorkerHeartbeat(db, workerId, until);
    await deleteDeadWorkers(db, at);
    const live = await countLiveWorkers(db);
    const share = Math.ceil(PARTITION_COUNT / Math.max(1, live));

    const mine = await renewHeldLeases(db, workerId, until);
    let held = mine;
    if (mine.length > share) {
      await releaseLeases(db, workerId, mine.slice(share));
      held = mine.slice(0, share);
    } else if (mine.length < share) {
      const taken = await takeFreeLeases(db, workerId, at, until, share - mine.length);
      held = [...mine, ...taken];
    }
    this.held = held.sort((a, b) => a - b);
    this.renewAt = now + this.leaseMs / 3;
    return this.held;
  }

  /** On a clean stop: the partitions are free at once instead of after the lease runs out. */
  async release(): Promise<void> {
    await releaseLeases(this.db, this.workerId);
    await deleteWorker(this.db, this.workerId);
    this.held = [];
    this.renewAt = Number.NEGATIVE_INFINITY;
  }
}
