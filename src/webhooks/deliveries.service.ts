import type { Db } from '../db/client.js';
import { conflict } from '../errors.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { insertTestDelivery, queueDeliveryNow, requireDelivery } from './deliveries.repository.js';
import { requireWebhook, type WebhookRow } from './webhooks.repository.js';

const webhookDisabled = () =>
  conflict('webhook_disabled', 'The webhook is disabled; enable it (PUT with "enabled": true) first.', {
    enabled: ['The webhook is disabled.'],
  });

/** A disabled webhook's deliveries wait; queueing one would only hide that nothing is sent. */
async function requireEnabledWebhook(db: Db, workspaceId: string, webhookId: string): Promise<WebhookRow> {
  const webhook = await requireWebhook(db, workspaceId, webhookId);
  if (!webhook.enabled) throw webhookDisabled();
  return webhook;
}

/** Queues a signed test event; the worker sends it like any other delivery. */
export async function sendTestEvent(db: Db, workspace: WorkspaceRow, webhookId: string, now: number) {
  const webhook = await requireEnabledWebhook(db, workspace.id, webhookId);
  const deliveryId = await insertTestDelivery(db, webhook, workspace.slug, now);
  return requireDelivery(db, workspace.id, webhookId, deliveryId);
}

/** Replays one delivery now (same body and webhook-id, a new attempt number). */
export async function retryDelivery(
  db: Db,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
  now: number,
) {
  await requireEnabledWebhook(db, workspaceId, webhookId);
  await queueDeliveryNow(db, workspaceId, webhookId, deliveryId, now);
  return requireDelivery(db, workspaceId, webhookId, deliveryId);
}
