import { conflict } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Page } from '../platform/http/pagination.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import {
  insertTestDelivery,
  listDeliveries,
  queueDeliveryNow,
  requireDelivery,
} from './deliveries.repository.js';
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
export async function sendTestEvent(
  uow: UnitOfWork,
  workspace: WorkspaceRow,
  webhookId: string,
  now: number,
) {
  return uow.run(workspace.id, async (tx) => {
    const webhook = await requireEnabledWebhook(tx, workspace.id, webhookId);
    const deliveryId = await insertTestDelivery(tx, webhook, workspace.slug, now);
    return requireDelivery(tx, workspace.id, webhookId, deliveryId);
  });
}

/** Replays one delivery now (same body and webhook-id, a new attempt number). */
export async function retryDelivery(
  uow: UnitOfWork,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
  now: number,
) {
  return uow.run(workspaceId, async (tx) => {
    await requireEnabledWebhook(tx, workspaceId, webhookId);
    await queueDeliveryNow(tx, workspaceId, webhookId, deliveryId, now);
    return requireDelivery(tx, workspaceId, webhookId, deliveryId);
  });
}

/** One page of a webhook's deliveries, newest first, each with its attempts. */
export function listDeliveriesPage(db: Db, workspaceId: string, webhookId: string, page: Page) {
  return listDeliveries(db, workspaceId, webhookId, page);
}
