import type { BookingContext } from '../bookings/bookings.service.js';
import { PeriodicRound } from '../outbox/periodic-round.js';
import type { WorkerLogger } from '../outbox/queue-worker.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Clock } from '../platform/http/types.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { attemptDueOperations } from './payment-operations.service.js';
import type { PaymentConfig } from './payment-providers.service.js';
import { releaseExpiredHolds } from './payments.service.js';

/** Holds are minutes long: a release at most this late after its end. */
export const PAYMENT_SWEEP_EVERY_MS = 20_000;

/** Kairos itself as the actor of a change in a workspace (a released hold, an owed refund). */
export function systemBookingContext(
  deps: { db: Db; uow: UnitOfWork; linkBase: string },
  now: () => number,
): (workspace: WorkspaceRow) => BookingContext {
  return (workspace) => ({
    workspace,
    actor: { type: 'system', id: null },
    now: now(),
    linkBase: deps.linkBase,
    db: deps.db,
    uow: deps.uow,
  });
}

/**
 * The worker's payment round, every 20 seconds: releases unpaid holds that ended (canceled as
 * `abandoned`, the slot free) and sends the owed provider calls that are due (refunds, fees,
 * checkout expiries; payment-operations.service.ts). Several processes may run it at once:
 * a hold is released under its booking's row lock, and operations are claimed with SKIP LOCKED.
 */
export class PaymentSweeper {
  private readonly loop: PeriodicRound;

  constructor(
    private readonly deps: {
      db: Db;
      uow: UnitOfWork;
      clock: Clock;
      linkBase: string;
      config: PaymentConfig;
      logger: WorkerLogger;
    },
    everyMs = PAYMENT_SWEEP_EVERY_MS,
  ) {
    this.loop = new PeriodicRound(() => this.sweepOnce(), everyMs);
  }

  start(): void {
    this.loop.start();
  }

  /** One round; failures are logged and the next round tries again. */
  async sweepOnce(): Promise<void> {
    const { db, uow, clock, config, logger } = this.deps;
    try {
      const released = await releaseExpiredHolds(
        db,
        systemBookingContext(this.deps, () => clock.now()),
        clock.now(),
      );
      if (released > 0) logger.info({ released }, 'payments: released unpaid holds');
      await attemptDueOperations(db, uow, config, clock.now());
    } catch (error) {
      logger.warn({ err: error }, 'payment round failed; retrying next round');
    }
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
