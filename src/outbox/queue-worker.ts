import { performance } from 'node:perf_hooks';
import { type Db, isStoreUnavailable } from '../platform/db/client.js';
import type { Clock } from '../platform/http/types.js';
import type { HandlerRegistry } from './handlers.js';
import { dispatchOutbox } from './outbox-dispatch.service.js';
import { PartitionLeases } from './partition-leases.service.js';

/** Where a worker tells of its rounds: a pause, a resume, a round that failed. */
export interface WorkerLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

/**
 * What is a feature's own in a worker: its claim statement (in the feature's repository) and what
 * one attempt is and leaves. Everything else (leases, dispatch, the poll loop, pausing while the
 * store is down, stopping) is the QueueWorker's.
 */
export interface LeasedQueue<Item, Outcome> {
  /** Names the worker in log lines: "<name> worker paused". */
  readonly name: string;
  /** How long a claim lasts: past it, an attempt that never finished (its worker died) is made again. */
  readonly claimMs: number;
  /**
   * Claims up to `limit` items of `partitions` due at `now`, each until `leaseUntil`, so no other
   * worker takes them meanwhile. Runs in no transaction of the worker's.
   */
  claim(now: number, leaseUntil: number, limit: number, partitions: readonly number[]): Promise<Item[]>;
  /**
   * Attempts the claimed items (sends happen here, outside any transaction) and records each
   * result while its claim still owns the item, retries with backoff included; one outcome per
   * item. Resolves when every result is recorded.
   */
  attempt(items: Item[]): Promise<Outcome[]>;
  /** Frees what the queue holds (a transport's connections) once its worker has stopped. */
  close?(): void;
}

export interface QueueWorkerOptions {
  db: Db;
  /** All scheduling reads this clock (leases, claims, retries), so tests move time instead of sleeping. */
  clock: Clock;
  /** The outbox handlers each round dispatches to before it claims (src/workers.ts). */
  handlers: HandlerRegistry;
  /** Pause between rounds when there was nothing to do. */
  pollMs?: number;
  /** Items claimed (and attempted together) per round. */
  batchSize?: number;
  logger?: WorkerLogger;
  /** The partition leases to work on: another worker's of this process, or own ones (then released on stop). */
  leases?: PartitionLeases;
  /** Who holds own partition leases; workers with distinct ids split the outbox partitions. */
  workerId?: string;
  /** How long an own partition lease lasts unless renewed (a dead worker's run out after it). */
  leaseMs?: number;
  /**
   * Give way to other work of the process: while its event loop is saturated (the API of the
   * embedded store under load shares it), a few items a round and a round a second, so the
   * worker never takes the requests' CPU (docs/notifications.md "Throughput").
   */
  yieldWhenSaturated?: boolean;
}

/** What one round did. */
export interface Round<Outcome> {
  /** Outbox events dispatched to their handlers. */
  dispatched: number;
  /** Attempts made, one outcome each. */
  outcomes: Outcome[];
}

/** Events dispatched per round; a full dispatch goes straight into the next round. */
const DISPATCH_BATCH = 100;
/** Between rounds while the store is unreachable: often enough to resume within a second or so. */
const STORE_RETRY_MS = 1_000;
/** Event loop utilization above which the process counts as saturated by other work. */
const SATURATED = 0.85;
/** While saturated: this many items per round, a round per pause. */
const SATURATED_BATCH = 4;
const SATURATED_PAUSE_MS = 1_000;
/** Between full batches of a yielding worker: long enough to see whether other work keeps the loop busy. */
const BUSY_PAUSE_MS = 50;

/**
 * One leased-queue worker: each round dispatches the outbox of its partitions (so no queue waits
 * for another worker's poll), claims a batch of due items, attempts them and records the results.
 * Any number of workers, in any number of processes, may share one store: a claim is what keeps
 * an item from being attempted twice at once, the partition leases only spread the work.
 */
export class QueueWorker<Item, Outcome> {
  /** The outbox partitions this worker works on (shared with the other workers of its process, or its own). */
  readonly leases: PartitionLeases;
  private readonly ownsLeases: boolean;
  private readonly pollMs: number;
  private readonly batchSize: number;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  /** Set while the store is unreachable: the worker waits longer between rounds and logs once. */
  private storeDownSince: number | undefined;

  constructor(
    private readonly queue: LeasedQueue<Item, Outcome>,
    private readonly options: QueueWorkerOptions,
  ) {
    this.pollMs = options.pollMs ?? 300;
    this.batchSize = options.batchSize ?? 20;
    this.ownsLeases = options.leases === undefined;
    this.leases =
      options.leases ?? new PartitionLeases(options.db, options.clock, options.workerId, options.leaseMs);
  }

  /** One round: dispatch, claim, attempt, record. Resolves when every result of the round is recorded. */
  async runOnce(limit: number = this.batchSize): Promise<Round<Outcome>> {
    const { db, clock, handlers, logger } = this.options;
    // Only this worker's partitions: no statement locks rows of more than one workspace.
    const partitions = await this.leases.current();
    const dispatched = await dispatchOutbox(db, handlers, clock.now(), DISPATCH_BATCH, partitions, logger);
    const now = clock.now();
    const items = await this.queue.claim(now, now + this.queue.claimMs, limit, partitions);
    if (items.length === 0) return { dispatched, outcomes: [] };
    return { dispatched, outcomes: await this.queue.attempt(items) };
  }

  /**
   * Polls until stop(); a full batch goes straight into the next round. While the store is
   * unreachable the worker pauses (one log line, rounds every STORE_RETRY_MS) and resumes by
   * itself on the first round that reaches it. An attempt whose result could not be recorded is
   * made again once its claim runs out: every queue is at least once.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.poll();
  }

  private async poll(): Promise<void> {
    const yields = this.options.yieldWhenSaturated === true;
    // Measured over the pauses only: the worker's own work is not what it yields to.
    let saturated = false;
    while (this.running) {
      const limit = saturated ? SATURATED_BATCH : this.batchSize;
      let busy = false;
      let wait = this.pollMs;
      try {
        const round = await this.runOnce(limit);
        busy = !saturated && (round.outcomes.length >= limit || round.dispatched >= DISPATCH_BATCH);
        if (saturated) wait = Math.max(this.pollMs, SATURATED_PAUSE_MS);
        this.storeReachable();
      } catch (error) {
        // No error may end the loop; the next round tries again.
        if (isStoreUnavailable(error)) {
          this.storeUnreachable(error);
          wait = Math.max(this.pollMs, STORE_RETRY_MS);
        } else {
          this.options.logger?.error({ err: error }, `${this.queue.name} worker round failed`);
        }
      }
      if (!this.running) break;
      if (busy && !yields) continue;
      const before = performance.eventLoopUtilization();
      await this.pause(busy ? BUSY_PAUSE_MS : wait);
      if (yields) saturated = performance.eventLoopUtilization(before).utilization > SATURATED;
    }
  }

  /** True while the worker is paused because the store is unreachable. */
  get paused(): boolean {
    return this.storeDownSince !== undefined;
  }

  private storeUnreachable(error: unknown): void {
    if (this.storeDownSince !== undefined) return;
    this.storeDownSince = Date.now();
    this.options.logger?.warn({ err: error }, `store unreachable; ${this.queue.name} worker paused`);
  }

  private storeReachable(): void {
    if (this.storeDownSince === undefined) return;
    this.options.logger?.info(
      { pausedMs: Date.now() - this.storeDownSince },
      `store reachable again; ${this.queue.name} worker resumed`,
    );
    this.storeDownSince = undefined;
  }

  /** Stops polling and resolves once the round in progress has recorded its results. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    this.queue.close?.();
    // Others may take the partitions at once; a crash skips this and the leases run out instead.
    if (this.ownsLeases) await this.leases.release().catch(() => {});
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }
}
