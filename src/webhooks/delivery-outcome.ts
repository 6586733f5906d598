import type { Db } from '../platform/db/client.js';
import type { DeliveryState } from '../platform/db/schema.js';
import type { ClaimedDelivery } from './deliveries.repository.js';
import type { SendResult } from './http-sender.js';
import { DISABLE_AFTER_FAILING_MS, parseRetryAfter, retryDelayMs } from './retry-schedule.js';

export type Outcome = 'succeeded' | 'retrying' | 'failed' | 'lease_lost';

/** What a send result means for the delivery: its next state and when to try again. */
export function decide(
  attempt: number,
  result: SendResult,
  now: number,
  random: () => number,
): { state: DeliveryState; nextAttemptAt: number | null } {
  if (result.ok) return { state: 'succeeded', nextAttemptAt: null };
  // 410 Gone: the receiver says the endpoint is no more; the webhook is disabled below.
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
 * Records one attempt and its consequences in one transaction: the attempt row, the delivery's
 * new state, and the webhook's health (a success ends a failure streak; a 410, or a streak of
 * three days, disables the webhook). If the lease ran out and another worker claimed the delivery
 * meanwhile, only the attempt is logged: the newer claim owns the state.
 */
export async function recordAttempt(
  db: Db,
  claimed: ClaimedDelivery,
  result: SendResult,
  startedAt: number,
  now: number,
  random: () => number,
): Promise<Outcome> {
  const next = decide(claimed.attempt_count, result, now, random);
  return db.transaction().execute(async (tx) => {
    const owned = await tx
      .updateTable('webhook_deliveries')
      .set({
        state: next.state,
        next_attempt_at: next.nextAttemptAt === null ? null : new Date(next.nextAttemptAt),
        locked_until: null,
        last_attempt_at: new Date(startedAt),
        last_status_code: result.statusCode,
        last_duration_ms: result.durationMs,
        last_error: result.error,
        updated_at: new Date(now),
      })
      .where('workspace_id', '=', claimed.workspace_id)
      .where('id', '=', claimed.id)
      .where('state', '=', 'sending')
      .where('attempt_count', '=', claimed.attempt_count)
      .returning('id')
      .executeTakeFirst();
    const exists =
      owned ??
      (await tx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('workspace_id', '=', claimed.workspace_id)
        .where('id', '=', claimed.id)
        .executeTakeFirst());
    // Gone only when the webhook was deleted while the attempt was in flight.
    if (!exists) return 'lease_lost';
    await tx
      .insertInto('webhook_delivery_attempts')
      .values({
        workspace_id: claimed.workspace_id,
        delivery_id: claimed.id,
        attempt: claimed.attempt_count,
        started_at: new Date(startedAt),
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error: result.error,
        response_excerpt: result.responseExcerpt ?? null,
      })
      .onConflict((oc) => oc.columns(['workspace_id', 'delivery_id', 'attempt']).doNothing())
      .execute();
    if (!owned) return 'lease_lost';
    await updateWebhookHealth(tx, claimed, result, now);
    if (next.state === 'succeeded') return 'succeeded';
    return next.state === 'pending' ? 'retrying' : 'failed';
  });
}

async function updateWebhookHealth(tx: Db, claimed: ClaimedDelivery, result: SendResult, now: number) {
  const webhooks = tx
    .updateTable('webhooks')
    .where('workspace_id', '=', claimed.workspace_id)
    .where('id', '=', claimed.webhook_id);
  if (result.ok) {
    await webhooks.set({ failing_since: null }).where('failing_since', 'is not', null).execute();
    return;
  }
  const webhook = await tx
    .selectFrom('webhooks')
    .select(['enabled', 'failing_since'])
    .where('workspace_id', '=', claimed.workspace_id)
    .where('id', '=', claimed.webhook_id)
    .forUpdate()
    .executeTakeFirst();
  if (!webhook) return;
  const since = webhook.failing_since?.getTime() ?? now;
  const gone = result.statusCode === 410;
  const failingTooLong = now - since >= DISABLE_AFTER_FAILING_MS;
  const disable = webhook.enabled && (gone || failingTooLong);
  await webhooks
    .set({
      failing_since: new Date(since),
      ...(disable
        ? { enabled: false, disabled_reason: gone ? 'gone' : 'failing', updated_at: new Date(now) }
        : {}),
    })
    .execute();
}
