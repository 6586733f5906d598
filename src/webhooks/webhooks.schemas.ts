import { Type } from 'typebox';
import { Nullable } from '../platform/http/nullable.js';
import { PaginationQuery } from '../platform/http/pagination.js';

export const WebhookParams = Type.Object({ webhookUuid: Type.String({ format: 'uuid' }) });
export const DeliveryParams = Type.Object({
  webhookUuid: Type.String({ format: 'uuid' }),
  deliveryUuid: Type.String({ format: 'uuid' }),
});

// Event names are checked by the service, which reports unknown ones by position (events.1).
const Events = Type.Array(Type.String({ maxLength: 100 }), {
  maxItems: 50,
  description: 'Event names (booking-created, booking-updated, ...), or ["*"] for all.',
});

const Format = Type.Enum(['standard', 'legacy'], {
  description:
    'Body format: "standard" (default; DESIGN §3 envelope) or "legacy" (the flat body of the real service, docs/webhooks.md).',
});

// Names and values are checked by the service, which reports each by its dotted key (headers.X-Token).
const Headers = Type.Record(Type.String(), Type.String({ maxLength: 1000 }), {
  maxProperties: 10,
  description:
    'Static headers sent with every delivery, e.g. {"Webhook-Token": "..."}; the values are shown only in this answer. Host, Content-Length, Content-Type and the webhook-* signature headers cannot be set.',
});

export const CreateWebhookBody = Type.Object({
  url: Type.String({ maxLength: 2048, description: 'http(s) URL on a public address.' }),
  events: Type.Optional(Events),
  enabled: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  format: Type.Optional(Format),
  headers: Type.Optional(Headers),
});

export const UpdateWebhookBody = Type.Object({
  url: Type.Optional(Type.String({ maxLength: 2048 })),
  events: Type.Optional(Events),
  enabled: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  format: Type.Optional(Format),
  headers: Type.Optional(Headers),
});

export const DeliveriesQuery = Type.Object({
  ...PaginationQuery.properties,
  state: Type.Optional(Type.Enum(['pending', 'sending', 'succeeded', 'failed'])),
});

const Instant = Type.String({ description: 'ISO 8601 instant' });
const NullableInstant = Nullable(Instant);

/** A webhook as answered; the secret is never part of it but on creation and rotation. */
export const WebhookJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  description: Type.String(),
  format: Type.Enum(['standard', 'legacy']),
  header_names: Type.Array(Type.String(), { description: 'Names of its static headers' }),
  /** Only in the answer of a request that set them (and on creation): their one showing. */
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  disabled_reason: Nullable(
    Type.Enum(['gone', 'failing'], { description: '"gone" (HTTP 410) or "failing" (3 days of failures)' }),
  ),
  failing_since: NullableInstant,
  created_at: Instant,
  updated_at: Instant,
});

export const WebhookWithSecretJson = Type.Object({
  ...WebhookJson.properties,
  secret: Type.String({ description: 'whsec_...; shown only in this answer' }),
  previous_secret_expires_at: NullableInstant,
});

export const DeliveryJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  webhook_uuid: Type.String({ format: 'uuid' }),
  event_type: Type.String(),
  event_id: Nullable(Type.String({ description: 'null for a test event' })),
  message_id: Type.String({ description: 'The webhook-id header, the same on every attempt' }),
  state: Type.Enum(['pending', 'sending', 'succeeded', 'failed']),
  attempt_count: Type.Integer(),
  last_status_code: Nullable(Type.Integer()),
  last_duration_ms: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  last_attempt_at: NullableInstant,
  next_attempt_at: NullableInstant,
  created_at: Instant,
  attempts: Type.Array(
    Type.Object({
      attempt: Type.Integer(),
      started_at: Instant,
      status_code: Nullable(Type.Integer()),
      duration_ms: Type.Integer(),
      error: Nullable(Type.String()),
    }),
  ),
});
