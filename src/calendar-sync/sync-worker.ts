import { PeriodicRound } from '../outbox/periodic-round.js';
import type { WorkerLogger } from '../outbox/queue-worker.js';
import { claimDueConnections } from './calendar-sync.repository.js';
import { type CalendarDeps, syncCalendar } from './calendar-sync.service.js';

/** How often the worker looks for due calendars (each is due every SYNC_INTERVAL_MS, or later on failure). */
export const SYNC_POLL_MS = 30_000;
/** How long a claimed connection is not handed to another worker (a sync that dies is retried after it). */
export const SYNC_LEASE_MS = 10 * 60_000;
const BATCH = 20;

/**
 * The periodic calendar sync: every SYNC_POLL_MS it claims due connections (a lease on
 * next_sync_at, so several processes share the work without syncing one twice) and syncs them
 * one after the other. A calendar's failure is recorded on its connection by syncCalendar;
 * anything else is logged and the next poll tries again.
 */
export class CalendarSyncWorker {
  private readonly loop: PeriodicRound;

  constructor(
    private readonly deps: CalendarDeps & { logger: WorkerLogger },
    everyMs = SYNC_POLL_MS,
  ) {
    this.loop = new PeriodicRound(() => this.syncDue(), everyMs);
  }

  start(): void {
    this.loop.start();
  }

  /** Syncs every connection due now; returns how many were synced. */
  async syncDue(): Promise<number> {
    let done = 0;
    try {
      for (;;) {
        const due = await claimDueConnections(
          this.deps.db,
          new Date(this.deps.clock.now()),
          SYNC_LEASE_MS,
          BATCH,
        );
        for (const c of due) {
          try {
            const outcome = await syncCalendar(this.deps, c.workspace_id, c.staffer_id);
            if (!outcome.ok) {
              this.deps.logger.warn(
                { workspaceId: c.workspace_id, stafferId: c.staffer_id, error: outcome.error },
                'calendar sync failed; last known busy times kept',
              );
            }
          } catch (error) {
            this.deps.logger.warn({ err: error, stafferId: c.staffer_id }, 'calendar sync failed');
          }
          done++;
        }
        if (due.length < BATCH) return done;
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'calendar sync poll failed; retrying');
      return done;
    }
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
