import { type AuditActor, recordAudit } from '../audit/audit.service.js';
import {
  type FieldErrors,
  type FieldIssue,
  limitReached,
  REQUIRED,
  ruleIssue,
  withIssues,
} from '../errors.js';
import { EVENT_TYPES } from '../outbox/event-types.js';
import type { Db } from '../platform/db/client.js';
import type { WebhookFormat } from '../platform/db/schema.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import type { Page } from '../platform/http/pagination.js';
import { throwIfInvalid } from '../platform/http/validation.js';
import { generateWebhookSecret } from './signing.js';
import { checkWebhookUrl } from './ssrf-guard.js';
import { checkHeaders } from './webhook-headers.js';
import {
  countWebhooksLocked,
  deleteWebhookRow,
  insertWebhook,
  listWebhooks,
  requireWebhook,
  rotateSecretRow,
  updateWebhookRow,
  type WebhookRow,
} from './webhooks.repository.js';

/** After a rotation the old secret keeps signing beside the new one for this long. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

export const WEBHOOK_FORMATS: readonly WebhookFormat[] = ['standard', 'legacy'];

/** "*" (or its alias "all") subscribes to every event, including those added later. */
export const ALL_EVENTS = '*';

export interface WebhookInput {
  url?: string | undefined;
  events?: string[] | undefined;
  enabled?: boolean | undefined;
  description?: string | undefined;
  format?: WebhookFormat | undefined;
  /** Replaces every static header; {} removes them. */
  headers?: Record<string, string> | undefined;
}

export interface WebhookContext {
  now: number;
  /** config.webhooksAllowPrivate: lets tests and private networks target internal hosts. */
  allowPrivate: boolean;
  /** config.maxWebhooksPerWorkspace: creating one more is a 422 `limit_reached`. */
  maxWebhooks?: number;
}

/**
 * Validates every field at once; `schemaErrors` are the route schema's own findings (routes use
 * attachValidation), so one 422 names every bad field. Fields the schema already refused are not
 * checked again. Returns the normalised url and event list.
 */
async function validate(
  input: WebhookInput,
  urlRequired: boolean,
  allowPrivate: boolean,
  schemaErrors: FieldErrors,
) {
  const errors: FieldErrors = {};
  const issues: Record<string, FieldIssue> = {};
  if (input.url === undefined) {
    if (urlRequired && !schemaErrors.url) {
      errors.url = ['The url field is required.'];
      issues.url = REQUIRED;
    }
  } else if (!schemaErrors.url) {
    const problem = await checkWebhookUrl(input.url.trim(), allowPrivate);
    if (problem) {
      errors.url = [problem.message];
      issues.url = ruleIssue(problem.rule);
    }
  }
  const eventsRefused = Object.keys(schemaErrors).some(
    (key) => key === 'events' || key.startsWith('events.'),
  );
  const events =
    input.events === undefined || eventsRefused ? undefined : normalizeEvents(input.events, errors);
  const headers =
    input.headers === undefined || schemaErrors.headers ? undefined : checkHeaders(input.headers, errors);
  // The API's schema refuses another format before this; the CLI passes what was typed.
  if (input.format !== undefined && !schemaErrors.format && !WEBHOOK_FORMATS.includes(input.format)) {
    errors.format = [`The format must be one of: ${WEBHOOK_FORMATS.join(', ')}.`];
  }
  throwIfInvalid(schemaErrors, withIssues(errors, issues));
  return { events, url: input.url?.trim(), headers };
}

/** Known names in a stable order, or ["*"]; unknown names are reported by position. */
export function normalizeEvents(events: string[], errors: FieldErrors): string[] {
  if (events.length === 0) {
    errors.events = ['The events field must list at least one event, or "*" for all.'];
    return [];
  }
  const wanted = new Set<string>();
  events.forEach((raw, index) => {
    const name = raw.trim();
    if (name === ALL_EVENTS || name === 'all') wanted.add(ALL_EVENTS);
    else if ((EVENT_TYPES as readonly string[]).includes(name)) wanted.add(name);
    else
      errors[`events.${index}`] = [
        `The event "${raw}" is unknown; use one of ${EVENT_TYPES.join(', ')}, or "*" for all.`,
      ];
  });
  if (wanted.has(ALL_EVENTS)) return [ALL_EVENTS];
  return EVENT_TYPES.filter((name) => wanted.has(name));
}

/** Creates a webhook with a fresh secret; the secret is returned here and by rotate only. */
export async function createWebhook(
  uow: UnitOfWork,
  workspaceId: string,
  input: WebhookInput,
  context: WebhookContext,
  actor: AuditActor,
  schemaErrors: FieldErrors = {},
): Promise<{ webhook: WebhookRow; secret: string }> {
  const { events, url, headers } = await validate(input, true, context.allowPrivate, schemaErrors);
  const secret = generateWebhookSecret();
  const webhook = await uow.run(workspaceId, async (tx) => {
    const limit = context.maxWebhooks;
    // The workspace row is locked for the count, so concurrent creates cannot pass the cap together.
    if (limit !== undefined && (await countWebhooksLocked(tx, workspaceId)) >= limit) {
      throw limitReached(
        'webhooks',
        `This workspace already has ${limit} webhooks, the most it may have; delete one first.`,
        limit,
      );
    }
    const row = await insertWebhook(tx, {
      workspaceId,
      url: url as string,
      events: events ?? [ALL_EVENTS],
      enabled: input.enabled ?? true,
      description: input.description ?? '',
      format: input.format ?? 'standard',
      headers: headers ?? {},
      secret,
      at: new Date(context.now),
    });
    await recordAudit(tx, workspaceId, actor, 'webhook.created', row.id, { url: row.url });
    return row;
  });
  return { webhook, secret };
}

/** Changes only the fields given. Re-enabling clears the reason and the failure streak. */
export async function updateWebhook(
  uow: UnitOfWork,
  workspaceId: string,
  webhookId: string,
  input: WebhookInput,
  context: WebhookContext,
  actor: AuditActor,
  schemaErrors: FieldErrors = {},
): Promise<WebhookRow> {
  await requireWebhook(uow.db, workspaceId, webhookId);
  const { events, url, headers } = await validate(input, false, context.allowPrivate, schemaErrors);
  return uow.run(workspaceId, async (tx) => {
    const row = await updateWebhookRow(tx, workspaceId, webhookId, {
      ...(url !== undefined ? { url } : {}),
      ...(input.format !== undefined ? { format: input.format } : {}),
      ...(headers !== undefined ? { headers: JSON.stringify(headers) } : {}),
      ...(events !== undefined ? { events: JSON.stringify(events) } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled !== undefined
        ? { enabled: input.enabled, disabled_reason: null, ...(input.enabled ? { failing_since: null } : {}) }
        : {}),
      updated_at: new Date(context.now),
    });
    await recordAudit(tx, workspaceId, actor, 'webhook.updated', webhookId, {
      fields: Object.keys(input)
        .filter((key) => input[key as keyof WebhookInput] !== undefined)
        .sort(),
    });
    return row;
  });
}

/**
 * Issues a new secret; the one it replaces keeps signing for PREVIOUS_SECRET_TTL_MS so receivers
 * can switch without losing a message.
 */
export async function rotateWebhookSecret(
  uow: UnitOfWork,
  workspaceId: string,
  webhookId: string,
  now: number,
  actor: AuditActor,
): Promise<{ webhook: WebhookRow; secret: string }> {
  const secret = generateWebhookSecret();
  const webhook = await uow.run(workspaceId, async (tx) => {
    const row = await rotateSecretRow(tx, workspaceId, webhookId, {
      secret,
      previousExpiresAt: new Date(now + PREVIOUS_SECRET_TTL_MS),
      at: new Date(now),
    });
    await recordAudit(tx, workspaceId, actor, 'webhook.secret_rotated', webhookId);
    return row;
  });
  return { webhook, secret };
}

/** Deletes the webhook and its delivery log; 404 when there is no such webhook here. */
export async function deleteWebhook(
  uow: UnitOfWork,
  workspaceId: string,
  webhookId: string,
  actor: AuditActor,
): Promise<void> {
  await uow.run(workspaceId, async (tx) => {
    await deleteWebhookRow(tx, workspaceId, webhookId);
    await recordAudit(tx, workspaceId, actor, 'webhook.deleted', webhookId);
  });
}

/** One page of the workspace's webhooks, with their total. */
export function listWebhooksPage(db: Db, workspaceId: string, page: Page) {
  return listWebhooks(db, workspaceId, page);
}

/** A webhook of the workspace; a 404 otherwise. */
export function getWebhook(db: Db, workspaceId: string, webhookId: string): Promise<WebhookRow> {
  return requireWebhook(db, workspaceId, webhookId);
}
