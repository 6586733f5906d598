/**
 * At most `limit` slot computations in flight per process; the rest wait their turn. A
 * computation is CPU-bound on the one JavaScript thread, so running more at once only overlaps
 * their database reads — while each holds thousands of busy spans and a large answer in memory.
 * Queuing keeps throughput and bounds the memory (issue 6: server RSS ≤ 300 MB).
 */
export class ComputeGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `running` stays as it is.
      if (next) next();
      else this.running -= 1;
    }
  }
}
