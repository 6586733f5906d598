import { BoundedCache } from './bounded-cache.js';
import type { Evaluation } from './engine/compute-slots.js';

/** At most this many numbers (instants, quantities, span bounds) are held: ~16 MB. */
const MAX_NUMBERS = 1_000_000;

/**
 * Engine evaluations (bookable instants and free time of one service at one location over a
 * window, computeSlots' `Evaluation`) shared by time-slot queries that differ only in range or
 * answer zone. The caller's key carries everything an evaluation depends on: the store state
 * (availability version, as SlotsCache), the minute of `now`, workspace, location, service,
 * staffer and window. Oldest out past the bound.
 */
export class EvaluationCache extends BoundedCache<Evaluation> {
  constructor() {
    super(MAX_NUMBERS, (evaluation) => evaluation.starts.length * 2 + evaluation.free.length * 2);
  }
}
