import type { Evaluation } from './compute-slots.js';

/** At most this many numbers (instants, quantities, span bounds) are held: ~16 MB. */
const MAX_NUMBERS = 1_000_000;

/**
 * Engine evaluations (bookable instants and free time of one service at one location over a
 * window, computeSlots' `Evaluation`) shared by time-slot queries that differ only in range or
 * answer zone. The caller's key carries everything an evaluation depends on: the store state
 * (availability version, as SlotsCache), the minute of `now`, workspace, location, service,
 * staffer and window. Oldest out past the bound.
 */
export class EvaluationCache {
  private readonly entries = new Map<string, { evaluation: Evaluation; size: number }>();
  private numbers = 0;

  get(key: string): Evaluation | undefined {
    return this.entries.get(key)?.evaluation;
  }

  set(key: string, evaluation: Evaluation): void {
    const size = evaluation.starts.length * 2 + evaluation.free.length * 2;
    if (size > MAX_NUMBERS / 4) return;
    this.delete(key);
    for (const [oldest] of this.entries) {
      if (this.numbers + size <= MAX_NUMBERS) break;
      this.delete(oldest);
    }
    this.entries.set(key, { evaluation, size });
    this.numbers += size;
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.numbers -= entry.size;
  }
}
