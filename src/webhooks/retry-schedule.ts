/**
 * When to try a failed delivery again (issue 5 §2): at once, then after about 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 14 h, 20 h and 24 h — ten attempts over about three and a half days.
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

/** A webhook whose deliveries have failed (with no success) for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * HOUR;

/** Longest wait a receiver's Retry-After may ask for. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * The wait after `attemptsMade` failed attempts, with jitter so that a receiver coming back is
 * not hit by every delivery at once; null when the attempts are used up.
 */
export function retryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  if (attemptsMade < 1 || attemptsMade >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attemptsMade - 1]!;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) {
    ms = Number(trimmed) * SECOND;
  } else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
