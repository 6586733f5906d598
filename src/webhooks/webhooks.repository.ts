import { type Selectable, sql, type Updateable } from 'kysely';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { WebhookFormat, WebhooksTable } from '../platform/db/schema.js';
import { lockWorkspace } from '../platform/db/workspace-locks.repository.js';
import type { Page } from '../platform/http/pagination.js';

export type WebhookRow = Selectable<WebhooksTable>;

export async function listWebhooks(db: Db, workspaceId: string, page: Page) {
  const rows = await db
    .selectFrom('webhooks')
    .selectAll()
    .select(sql<number>`count(*) over ()`.as('total'))
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('url')
    .orderBy('id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  const total = rows[0]?.total ?? (page.offset > 0 ? await countWebhooks(db, workspaceId) : 0);
  return { rows: rows as WebhookRow[], total: Number(total) };
}

async function countWebhooks(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** A webhook of this workspace, or 404 — the same for another workspace's and an unknown uuid. */
export async function requireWebhook(db: Db, workspaceId: string, webhookId: string): Promise<WebhookRow> {
  const row = await db
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', webhookId)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook');
  return row;
}

/** The workspace's webhooks, counted under a lock on its row (held until `tx` ends). */
export async function countWebhooksLocked(tx: Db, workspaceId: string): Promise<number> {
  await lockWorkspace(tx, workspaceId, 'webhooks');
  const { count } = await tx
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** A success ends the webhook's failure streak (a write only when one is running). */
export async function clearWebhookFailing(tx: Db, workspaceId: string, webhookId: string): Promise<void> {
  await tx
    .updateTable('webhooks')
    .set({ failing_since: null })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', webhookId)
    .where('failing_since', 'is not', null)
    .execute();
}

/** The webhook's health, its row locked until `tx` ends; undefined when it was deleted. */
export async function lockWebhookHealth(
  tx: Db,
  workspaceId: string,
  webhookId: string,
): Promise<{ enabled: boolean; failing_since: Date | null } | undefined> {
  return tx
    .selectFrom('webhooks')
    .select(['enabled', 'failing_since'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', webhookId)
    .forUpdate()
    .executeTakeFirst();
}

/** Records a running failure streak and, when given, disables the webhook for that reason. */
export async function setWebhookFailing(
  tx: Db,
  workspaceId: string,
  webhookId: string,
  failingSince: Date,
  disable: { reason: 'gone' | 'failing'; at: Date } | null,
): Promise<void> {
  await tx
    .updateTable('webhooks')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', webhookId)
    .set({
      failing_since: failingSince,
      ...(disable ? { enabled: false, disabled_reason: disable.reason, updated_at: disable.at } : {}),
    })
    .execute();
}

export async function insertWebhook(
  db: Db,
  values: {
    workspaceId: string;
    url: string;
    events: string[];
    enabled: boolean;
    description: string;
    format: WebhookFormat;
    headers: Record<string, string>;
    secret: string;
    at: Date;
  },
): Promise<WebhookRow> {
  return db
    .insertInto('webhooks')
    .values({
      workspace_id: values.workspaceId,
      url: values.url,
      events: JSON.stringify(values.events),
      enabled: values.enabled,
      description: values.description,
      format: values.format,
      headers: JSON.stringify(values.headers),
      secret: values.secret,
      previous_secret: null,
      previous_secret_expires_at: null,
      disabled_reason: null,
      failing_since: null,
      created_at: values.at,
      updated_at: values.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateWebhookRow(
  db: Db,
  workspaceId: string,
  webhookId: string,
  changes: Updateable<WebhooksTable>,
): Promise<WebhookRow> {
  const row = await db
    .updateTable('webhooks')
    .set(changes)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', webhookId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Webhook');
  return row;
}

/** Deliveries and their attempts go with it (ON DELETE CASCADE). */
export async function deleteWebhookRow(db: Db, workspaceId: string, webhookId: string): Promise<void> {
  const result = await db
    .deleteFrom('webhooks')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', webhookId)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('Webhook');
}

/** One statement: `previous_secret = secret` reads the value the row had before this update. */
export async function rotateSecretRow(
  db: Db,
  workspaceId: string,
  webhookId: string,
  values: { secret: string; previousExpiresAt: Date; at: Date },
): Promise<WebhookRow> {
  const row = await db
    .updateTable('webhooks')
    .set((eb) => ({
      previous_secret: eb.ref('secret'),
      previous_secret_expires_at: values.previousExpiresAt,
      secret: values.secret,
      updated_at: values.at,
    }))
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', webhookId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Webhook');
  return row;
}
