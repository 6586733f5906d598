import { PeriodicRound } from '../outbox/periodic-round.js';
import type { WorkerLogger } from '../outbox/queue-worker.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Clock } from '../platform/http/types.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import { workspacesWithAutoOffers, workspacesWithDueOffers } from './waitlist.repository.js';
import { claimAutoOffers, expireOffers } from './waitlist-offers.service.js';

/** Holds are counted in minutes: a round every 30 s lets an offer run at most that much longer. */
export const WAITLIST_ROUND_EVERY_MS = 30_000;

/**
 * The waitlist's periodic round (on the outbox's PeriodicRound): offers whose hold ended expire,
 * and their times go to who is next in line; then offers marked to be claimed automatically (a
 * group-class seat, auto_fill_group_seats) are claimed, booking the seat for their person. Several processes may run it at once: expiring is a
 * guarded update (an offer expires once), and offers of a workspace take turns on its lock.
 */
export class WaitlistRound {
  private readonly loop: PeriodicRound;

  constructor(
    private readonly deps: {
      db: Db;
      uow: UnitOfWork;
      clock: Clock;
      logger: WorkerLogger;
      /** The base of absolute links in the bookings an automatic claim makes (config.publicBaseUrl). */
      linkBase?: string;
    },
    everyMs = WAITLIST_ROUND_EVERY_MS,
  ) {
    this.loop = new PeriodicRound(() => this.runOnce(), everyMs);
  }

  start(): void {
    this.loop.start();
  }

  /** One round at the clock's now; failures are logged and the next round tries again. */
  async runOnce(): Promise<{ expired: number; offered: number; booked: number }> {
    const total = { expired: 0, offered: 0, booked: 0 };
    try {
      const now = this.deps.clock.now();
      for (const workspaceId of await workspacesWithDueOffers(this.deps.db, new Date(now))) {
        const workspace = await findWorkspaceById(this.deps.db, workspaceId);
        if (!workspace) continue;
        const done = await expireOffers(this.deps, workspace, now);
        total.expired += done.expired;
        total.offered += done.offered;
      }
      const claims = { ...this.deps, linkBase: this.deps.linkBase ?? '' };
      for (const workspaceId of await workspacesWithAutoOffers(this.deps.db, new Date(now))) {
        const workspace = await findWorkspaceById(this.deps.db, workspaceId);
        if (!workspace) continue;
        total.booked += (await claimAutoOffers(claims, workspace, now)).booked;
      }
      if (total.expired > 0 || total.booked > 0)
        this.deps.logger.info(total, 'waitlist: offers expired, times offered on, seats filled');
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'waitlist round failed; retrying next round');
    }
    return total;
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
