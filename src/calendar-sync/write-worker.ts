import { PeriodicRound } from '../outbox/periodic-round.js';
import type { WorkerLogger } from '../outbox/queue-worker.js';
import { claimDueWrites } from './calendar-writes.repository.js';
import { type CalendarWriteDeps, runBookingWrite } from './calendar-writes.service.js';

/** How often the worker looks for queued calendar writes. */
export const WRITE_POLL_MS = 10_000;
/** How long a claimed write is not handed to another worker (a send that dies is retried after it). */
export const WRITE_LEASE_MS = 5 * 60_000;
const BATCH = 50;

/**
 * Bookings out to staffers' calendars: every WRITE_POLL_MS it claims due writes (a lease on
 * next_attempt_at) and sends them one after the other. A write's failure is recorded on its row
 * (retried with backoff); anything else is logged and the next poll tries again.
 */
export class CalendarWriteWorker {
  private readonly loop: PeriodicRound;

  constructor(
    private readonly deps: CalendarWriteDeps & { logger: WorkerLogger },
    everyMs = WRITE_POLL_MS,
  ) {
    this.loop = new PeriodicRound(() => this.sendDue(), everyMs);
  }

  start(): void {
    this.loop.start();
  }

  /** Sends every write due now; returns how many were tried. */
  async sendDue(): Promise<number> {
    let done = 0;
    try {
      for (;;) {
        const due = await claimDueWrites(
          this.deps.db,
          new Date(this.deps.clock.now()),
          WRITE_LEASE_MS,
          BATCH,
        );
        for (const write of due) {
          const outcome = await runBookingWrite(this.deps, write);
          if (!outcome.ok) {
            this.deps.logger.warn(
              { workspaceId: write.workspace_id, bookingId: write.booking_id, error: outcome.error },
              'calendar write failed; retried later',
            );
          }
          done++;
        }
        if (due.length < BATCH) return done;
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'calendar write poll failed; retrying');
      return done;
    }
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
