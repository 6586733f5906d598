import { CACHE_BACKSTOP_TTL_MS, type InvalidationBus } from '../platform/bus/invalidation-bus.js';
import type { Db } from '../platform/db/client.js';
import type { AvailabilityInvalidation } from './availability-invalidation.js';
import { bumpAvailabilityVersions } from './availability-versions.repository.js';

/**
 * Slot-cache invalidation pushed over a bus (docs/operations/scale-out.md): a process learns that a
 * workspace changed from a message, so a cached answer is checked against a version held in
 * memory — no read of the store per request.
 *
 * - A commit here moves the workspace's version on in this process at once, then tells the others.
 * - A message moves that workspace's version on; a message saying "anything may have changed"
 *   (the bus reconnected and may have missed some) moves every version on.
 * - Every version also carries the CACHE_BACKSTOP_TTL_MS period of `now`: whatever a lost message
 *   leaves stale serves no longer than that. A stale answer can never book a taken slot anyway:
 *   the database decides each booking (docs/decisions/0003-double-booking.md).
 *
 * Commits still move the workspace's version row in the store, so processes on the same database
 * that run without a bus (INVALIDATION_BUS=off) stay exact beside this one.
 */
export class BusAvailabilityInvalidation implements AvailabilityInvalidation {
  private readonly versions = new Map<string, number>();
  /** Moves on when messages may have been missed: every workspace's answers drop. */
  private epoch = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly db: Db,
    private readonly bus: InvalidationBus,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = CACHE_BACKSTOP_TTL_MS,
  ) {
    this.unsubscribe = bus.subscribe((workspaceId) => {
      if (workspaceId === undefined) this.epoch += 1;
      else this.bump(workspaceId);
    });
  }

  async version(workspaceId: string): Promise<string> {
    const period = Math.floor(this.now() / this.ttlMs);
    return `${this.epoch}.${this.versions.get(workspaceId) ?? 0}.${period}`;
  }

  async invalidate(workspaceIds: readonly string[]): Promise<void> {
    for (const workspaceId of workspaceIds) this.bump(workspaceId);
    await bumpAvailabilityVersions(this.db, workspaceIds);
    await Promise.all(workspaceIds.map((workspaceId) => this.bus.publish(workspaceId)));
  }

  /** Stops listening (the bus itself is closed by whoever opened it). */
  close(): void {
    this.unsubscribe();
  }

  private bump(workspaceId: string): void {
    this.versions.set(workspaceId, (this.versions.get(workspaceId) ?? 0) + 1);
  }
}
