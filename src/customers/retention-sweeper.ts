import { PeriodicRound } from '../outbox/periodic-round.js';
import type { WorkerLogger } from '../outbox/queue-worker.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Clock } from '../platform/http/types.js';
import { sweepRetention } from './customer-data.service.js';

/** Retention is counted in months: once an hour is early enough, and costs one small read. */
export const RETENTION_SWEEP_EVERY_MS = 60 * 60_000;

/**
 * Runs the retention sweep (customer-data.service.ts sweepRetention) on the worker: shortly after
 * start, then every hour. Several processes may sweep at once: erasing is idempotent, so the
 * worst case is the same customer scrubbed twice, to the same result.
 */
export class RetentionSweeper {
  private readonly loop: PeriodicRound;

  constructor(
    private readonly deps: { db: Db; uow: UnitOfWork; clock: Clock; linkBase: string; logger: WorkerLogger },
    everyMs = RETENTION_SWEEP_EVERY_MS,
  ) {
    this.loop = new PeriodicRound(() => this.sweepOnce(), everyMs);
  }

  start(): void {
    this.loop.start();
  }

  /** One sweep; failures are logged and the next hour tries again. */
  async sweepOnce(): Promise<void> {
    try {
      const erased = await sweepRetention({ ...this.deps, now: this.deps.clock.now() });
      if (erased > 0) this.deps.logger.info({ erased }, 'retention: erased customers with no recent booking');
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'retention sweep failed; retrying next hour');
    }
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
