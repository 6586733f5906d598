const HOUR = 60 * 60 * 1000;

/** A webhook whose deliveries have failed (with no success) for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 24 * HOUR;

/** Longest wait a receiver's Retry-After may ask for. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/** `Retry-After` as delta-seconds or an HTTP date, in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) {
    ms = Number(trimmed) * 1000;
  } else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return null;
    ms = at - now;
  }
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}
