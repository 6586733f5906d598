import type { Db } from '../platform/db/client.js';
import {
  type ClaimedDelivery,
  deliveryExists,
  insertDeliveryAttempt,
  settleClaimedDelivery,
} from './deliveries.repository.js';
import { decide, failingHealth, type Outcome } from './delivery-outcome.rules.js';
import type { SendResult } from './http-sender.js';
import { clearWebhookFailing, lockWebhookHealth, setWebhookFailing } from './webhooks.repository.js';

/**
 * Records one attempt and its consequences in one transaction: the attempt row, the delivery's
 * new state, and the webhook's health (a success ends a failure streak; a 410, or a streak of
 * three days, disables the webhook). If the lease ran out and another worker claimed the delivery
 * meanwhile, only the attempt is logged: the newer claim owns the state.
 *
 * The worker's own bookkeeping: a plain transaction, not a unit of work (no slot answer changes).
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
    const owned = await settleClaimedDelivery(tx, claimed, {
      state: next.state,
      nextAttemptAt: next.nextAttemptAt === null ? null : new Date(next.nextAttemptAt),
      attemptedAt: new Date(startedAt),
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      updatedAt: new Date(now),
    });
    // Gone only when the webhook was deleted while the attempt was in flight.
    if (!owned && !(await deliveryExists(tx, claimed.workspace_id, claimed.id))) return 'lease_lost';
    await insertDeliveryAttempt(tx, {
      workspaceId: claimed.workspace_id,
      deliveryId: claimed.id,
      attempt: claimed.attempt_count,
      startedAt: new Date(startedAt),
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      responseExcerpt: result.responseExcerpt ?? null,
    });
    if (!owned) return 'lease_lost';
    await updateWebhookHealth(tx, claimed, result, now);
    if (next.state === 'succeeded') return 'succeeded';
    return next.state === 'pending' ? 'retrying' : 'failed';
  });
}

async function updateWebhookHealth(tx: Db, claimed: ClaimedDelivery, result: SendResult, now: number) {
  if (result.ok) {
    await clearWebhookFailing(tx, claimed.workspace_id, claimed.webhook_id);
    return;
  }
  const webhook = await lockWebhookHealth(tx, claimed.workspace_id, claimed.webhook_id);
  if (!webhook) return;
  const health = failingHealth(webhook, result, now);
  await setWebhookFailing(
    tx,
    claimed.workspace_id,
    claimed.webhook_id,
    new Date(health.failingSince),
    health.disable ? { reason: health.disable, at: new Date(now) } : null,
  );
}
