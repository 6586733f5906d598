/**
 * When a leased queue (webhook deliveries, emails) tries a failed attempt again: at once, then
 * after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h — ten attempts over about
 * three and a half days.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** RETRY_DELAYS_MS[n - 1] is the wait after the n-th failed attempt. */
export const RETRY_DELAYS_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
] as const;

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Spread of the jitter: a delay is scaled by a factor in [1 - JITTER, 1 + JITTER). */
export const JITTER = 0.1;

/**
 * The wait after `attemptsMade` failed attempts, with jitter so that a receiver coming back is
 * not hit by every delivery at once; null when the attempts are used up.
 */
export function retryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  if (attemptsMade < 1 || attemptsMade >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attemptsMade - 1]!;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}
