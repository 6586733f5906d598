import pLimit, { type LimitFunction } from 'p-limit';

/**
 * At most `limit` slot computations in flight per process; the rest wait their turn, first come
 * first served (p-limit's queue). A computation is CPU-bound on the one JavaScript thread, so
 * running more at once only overlaps their database reads — while each holds thousands of busy
 * spans and a large answer in memory. Queuing keeps throughput and bounds the memory (the bench's
 * bar: server RSS ≤ 300 MB).
 */
export class ComputeGate {
  private readonly limit: LimitFunction;

  constructor(limit: number) {
    this.limit = pLimit(limit);
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return this.limit(task);
  }

  /** Computations waiting for a place. */
  get waiting(): number {
    return this.limit.pendingCount;
  }
}
