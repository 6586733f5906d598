import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import type { DeliveryState } from '../db/schema.js';
import { conflict, notFound } from '../errors.js';
import type { Page } from '../http/pagination.js';
import type { EventBody } from './outbox.js';
import type { AttemptRow, DeliveryRow } from './webhooks.presenter.js';
import type { WebhookRow } from './webhooks.repository.js';

/** `webhook-id`: derived from the event, so every attempt (and a manual replay) carries the same one. */
export function messageIdFor(eventId: string): string {
  return `msg_${eventId.replaceAll('-', '')}`;
}

/** The body as receivers get it: DESIGN §3's keys in DESIGN §3's order (jsonb does not keep order). */
function bodyOf(payload: Record<string, unknown>): string {
  const { type, timestamp, workspace, sequence, data, ...rest } = payload;
  return JSON.stringify({ type, timestamp, workspace, sequence, data, ...rest });
}

/**
 * Turns undispatched outbox events into one delivery per enabled webhook that wants the event
 * type, and marks the events dispatched — in one transaction, so a crash leaves either both or
 * neither. SKIP LOCKED lets several workers fan out different events at once; the unique key on
 * (webhook, event) makes a repeat harmless. Returns how many events were dispatched.
 */
export async function fanOutEvents(db: Db, now: number, limit: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const events = await tx
      .selectFrom('outbox_events')
      .select(['workspace_id', 'id', 'type', 'payload'])
      .where('dispatched_at', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (events.length === 0) return 0;
    const workspaceIds = [...new Set(events.map((event) => event.workspace_id))];
    const webhooks = await tx
      .selectFrom('webhooks')
      .select(['workspace_id', 'id', 'events'])
      .where('workspace_id', 'in', workspaceIds)
      .where('enabled', '=', true)
      .execute();
    const deliveries = events.flatMap((event) =>
      webhooks
        .filter(
          (webhook) =>
            webhook.workspace_id === event.workspace_id &&
            (webhook.events.includes('*') || webhook.events.includes(event.type)),
        )
        .map((webhook) => ({
          workspace_id: event.workspace_id,
          webhook_id: webhook.id,
          event_id: event.id,
          event_type: event.type,
          message_id: messageIdFor(event.id),
          body: bodyOf(event.payload),
          next_attempt_at: new Date(now),
          updated_at: new Date(now),
        })),
    );
    if (deliveries.length > 0) {
      await tx
        .insertInto('webhook_deliveries')
        .values(deliveries)
        .onConflict((oc) => oc.columns(['workspace_id', 'webhook_id', 'event_id']).doNothing())
        .execute();
    }
    for (const workspaceId of workspaceIds) {
      await tx
        .updateTable('outbox_events')
        .set({ dispatched_at: new Date(now) })
        .where('workspace_id', '=', workspaceId)
        .where(
          'id',
          'in',
          events.filter((event) => event.workspace_id === workspaceId).map((event) => event.id),
        )
        .execute();
    }
    return events.length;
  });
}

export interface ClaimedDelivery {
  workspace_id: string;
  id: string;
  webhook_id: string;
  message_id: string;
  body: string;
  /** The number of the attempt this claim makes (1 = first). */
  attempt_count: number;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * Claims up to `limit` due deliveries of enabled webhooks: pending ones whose time has come, and
 * in-flight ones whose lease ran out (their worker died). One short statement: the rows are
 * locked with SKIP LOCKED, so concurrent workers take disjoint sets, then marked `sending` until
 * `leaseUntil` with the attempt number bumped. The send happens after this commits.
 */
export async function claimDueDeliveries(
  db: Db,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const at = new Date(now);
  const result = await sql<ClaimedDelivery>`
    UPDATE webhook_deliveries AS d
    SET state = 'sending', attempt_count = d.attempt_count + 1,
        locked_until = ${new Date(leaseUntil)}, updated_at = ${at}
    FROM (
      SELECT c.workspace_id, c.id
      FROM webhook_deliveries AS c
      JOIN webhooks AS cw ON cw.workspace_id = c.workspace_id AND cw.id = c.webhook_id
      WHERE cw.enabled
        AND ((c.state = 'pending' AND c.next_attempt_at <= ${at})
          OR (c.state = 'sending' AND c.locked_until <= ${at}))
      ORDER BY c.next_attempt_at, c.id
      LIMIT ${limit}
      FOR UPDATE OF c SKIP LOCKED
    ) AS due, webhooks AS w
    WHERE d.workspace_id = due.workspace_id AND d.id = due.id
      AND w.workspace_id = d.workspace_id AND w.id = d.webhook_id
    RETURNING d.workspace_id, d.id, d.webhook_id, d.message_id, d.body, d.attempt_count,
              w.url, w.secret, w.previous_secret, w.previous_secret_expires_at`.execute(db);
  return result.rows;
}

export async function listDeliveries(
  db: Db,
  workspaceId: string,
  webhookId: string,
  page: Page,
  state?: DeliveryState,
): Promise<{ rows: DeliveryRow[]; attempts: Map<string, AttemptRow[]>; total: number }> {
  let query = db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .select(sql<number>`count(*) over ()`.as('total'))
    .where('workspace_id', '=', workspaceId)
    .where('webhook_id', '=', webhookId);
  if (state) query = query.where('state', '=', state);
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && page.offset > 0) {
    let count = db
      .selectFrom('webhook_deliveries')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('webhook_id', '=', webhookId);
    if (state) count = count.where('state', '=', state);
    total = (await count.executeTakeFirstOrThrow()).n;
  }
  const attempts = await attemptsOf(
    db,
    workspaceId,
    rows.map((row) => row.id),
  );
  return { rows, attempts, total };
}

async function attemptsOf(db: Db, workspaceId: string, deliveryIds: string[]) {
  const byDelivery = new Map<string, AttemptRow[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await db
    .selectFrom('webhook_delivery_attempts')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempt')
    .execute();
  for (const row of rows) {
    const list = byDelivery.get(row.delivery_id) ?? [];
    list.push(row);
    byDelivery.set(row.delivery_id, list);
  }
  return byDelivery;
}

export async function requireDelivery(
  db: Db,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
): Promise<{ delivery: DeliveryRow; attempts: AttemptRow[] }> {
  const delivery = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .executeTakeFirst();
  if (!delivery) throw notFound('Delivery');
  const attempts = (await attemptsOf(db, workspaceId, [delivery.id])).get(delivery.id) ?? [];
  return { delivery, attempts };
}

/**
 * Makes a delivery due now, whatever its state (a succeeded one is sent again). One in flight is
 * left alone: its attempt is under way.
 */
export async function queueDeliveryNow(
  db: Db,
  workspaceId: string,
  webhookId: string,
  deliveryId: string,
  now: number,
): Promise<void> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ state: 'pending', next_attempt_at: new Date(now), locked_until: null, updated_at: new Date(now) })
    .where('workspace_id', '=', workspaceId)
    .where('webhook_id', '=', webhookId)
    .where('id', '=', deliveryId)
    .where('state', '<>', 'sending')
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) {
    await requireDelivery(db, workspaceId, webhookId, deliveryId);
    throw conflict('delivery_in_flight', 'The delivery is being sent right now; retry it when it is done.');
  }
}

/** A signed `{"type":"test",...}` event for one webhook, sent through the normal pipeline. */
export async function insertTestDelivery(
  db: Db,
  webhook: WebhookRow,
  workspaceSlug: string,
  now: number,
): Promise<string> {
  const body: EventBody & { data: { booking: null; webhook_uuid: string } } = {
    type: 'test',
    timestamp: new Date(now).toISOString(),
    workspace: workspaceSlug,
    sequence: 0,
    data: { booking: null, webhook_uuid: webhook.id },
  };
  const row = await db
    .insertInto('webhook_deliveries')
    .values({
      workspace_id: webhook.workspace_id,
      webhook_id: webhook.id,
      event_id: null,
      event_type: 'test',
      message_id: messageIdFor(randomUUID()),
      body: JSON.stringify(body),
      next_attempt_at: new Date(now),
      updated_at: new Date(now),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
