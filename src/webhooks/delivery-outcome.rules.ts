import { retryDelayMs } from '../outbox/retry-schedule.js';
import type { DeliveryState } from '../platform/db/schema.js';
import type { SendResult } from './http-sender.js';
import { DISABLE_AFTER_FAILING_MS, parseRetryAfter } from './retry-after.js';

export type Outcome = 'succeeded' | 'retrying' | 'failed' | 'lease_lost';

/** What a send result means for the delivery: its next state and when to try again. */
export function decide(
  attempt: number,
  result: SendResult,
  now: number,
  random: () => number,
): { state: DeliveryState; nextAttemptAt: number | null } {
  if (result.ok) return { state: 'succeeded', nextAttemptAt: null };
  // 410 Gone: the receiver says the endpoint is no more; the webhook is disabled (failingHealth).
  if (result.statusCode === 410) return { state: 'failed', nextAttemptAt: null };
  let delay = retryDelayMs(attempt, random);
  if (delay !== null && (result.statusCode === 429 || result.statusCode === 503)) {
    delay = parseRetryAfter(result.retryAfter, now) ?? delay;
  }
  return delay === null
    ? { state: 'failed', nextAttemptAt: null }
    : { state: 'pending', nextAttemptAt: now + delay };
}

/**
 * A webhook's health after a failed attempt: the failure streak starts now unless one is running,
 * and a 410 or a streak of three days disables a webhook still enabled.
 */
export function failingHealth(
  webhook: { enabled: boolean; failing_since: Date | null },
  result: SendResult,
  now: number,
): { failingSince: number; disable: 'gone' | 'failing' | null } {
  const since = webhook.failing_since?.getTime() ?? now;
  const gone = result.statusCode === 410;
  const failingTooLong = now - since >= DISABLE_AFTER_FAILING_MS;
  const disable = webhook.enabled && (gone || failingTooLong);
  return { failingSince: since, disable: disable ? (gone ? 'gone' : 'failing') : null };
}
