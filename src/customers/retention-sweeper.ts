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
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly deps: { db: Db; uow: UnitOfWork; clock: Clock; linkBase: string; logger: WorkerLogger },
    private readonly everyMs = RETENTION_SWEEP_EVERY_MS,
  ) {}

  start(): void {
    if (this.timer) return;
    const tick = () => {
      if (this.running) return;
      this.running = this.sweepOnce().finally(() => {
        this.running = undefined;
      });
    };
    this.timer = setInterval(tick, this.everyMs);
    this.timer.unref();
    setImmediate(tick);
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

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
