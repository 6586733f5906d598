import type { Selectable } from 'kysely';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable } from '../platform/db/schema.js';
import type { WebhookRow } from './webhooks.repository.js';

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** A webhook as the API shows it; the secret is never part of it (see presentCreatedWebhook). */
export function presentWebhook(row: WebhookRow) {
  return {
    uuid: row.id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    description: row.description,
    format: row.format,
    /** The names of its static headers; their values are shown only when they are set. */
    header_names: Object.keys(row.headers),
    /** Why the system turned it off: "gone" (HTTP 410) or "failing" (3 days of failures). */
    disabled_reason: row.disabled_reason,
    failing_since: iso(row.failing_since),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** An answer to a request that set the static headers: the one time their values are shown. */
export function presentWebhookWithHeaders(row: WebhookRow) {
  return { ...presentWebhook(row), headers: row.headers };
}

/** Creation and rotation: the only answers that carry the secret. */
export function presentWebhookWithSecret(row: WebhookRow, secret: string) {
  return {
    ...presentWebhook(row),
    secret,
    previous_secret_expires_at: iso(row.previous_secret_expires_at),
  };
}

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookDeliveryAttemptsTable>;

export function presentDelivery(row: DeliveryRow, attempts: AttemptRow[]) {
  return {
    uuid: row.id,
    webhook_uuid: row.webhook_id,
    event_type: row.event_type,
    event_id: row.event_id,
    /** The webhook-id header, the same on every attempt. */
    message_id: row.message_id,
    state: row.state,
    attempt_count: row.attempt_count,
    last_status_code: row.last_status_code,
    last_duration_ms: row.last_duration_ms,
    last_error: row.last_error,
    last_attempt_at: iso(row.last_attempt_at),
    next_attempt_at: iso(row.next_attempt_at),
    created_at: row.created_at.toISOString(),
    attempts: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      started_at: attempt.started_at.toISOString(),
      status_code: attempt.status_code,
      duration_ms: attempt.duration_ms,
      error: attempt.error,
    })),
  };
}
