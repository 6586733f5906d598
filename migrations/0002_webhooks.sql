-- Webhooks (DESIGN §3 "Webhook events", §4.4): subscriptions, one delivery per (webhook, event),
-- and a log of every attempt. Every key includes workspace_id (DESIGN §4.3).

CREATE TABLE webhooks (
  workspace_id        uuid NOT NULL REFERENCES workspaces (id),
  id                  uuid NOT NULL DEFAULT gen_random_uuid(),
  url                 text NOT NULL,
  -- event names the webhook wants, or ["*"] for all
  events              jsonb NOT NULL DEFAULT '["*"]',
  enabled             boolean NOT NULL DEFAULT true,
  description         text NOT NULL DEFAULT '',
  -- kept in clear: HMAC signing needs the key itself (whsec_ + base64)
  secret              text NOT NULL,
  -- after a rotation the old secret signs beside the new one until previous_secret_expires_at
  previous_secret     text,
  previous_secret_expires_at timestamptz,
  -- why the system disabled it: 'gone' (receiver answered 410) or 'failing' (3 days of failures)
  disabled_reason     text CHECK (disabled_reason IN ('gone', 'failing')),
  -- first failed attempt since the last success; null while healthy
  failing_since       timestamptz,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX webhooks_enabled ON webhooks (workspace_id) WHERE enabled;

-- One event to one webhook. state: pending (waiting for next_attempt_at), sending (claimed by a
-- worker until locked_until; an expired lease makes it claimable again), succeeded, failed (gave up).
CREATE TABLE webhook_deliveries (
  workspace_id     uuid NOT NULL,
  id               uuid NOT NULL DEFAULT gen_random_uuid(),
  webhook_id       uuid NOT NULL,
  -- the outbox event; null for test events
  event_id         uuid,
  event_type       text NOT NULL,
  -- webhook-id header: the same on every attempt of this delivery
  message_id       text NOT NULL,
  -- the exact JSON body sent on every attempt
  body             text NOT NULL,
  state            text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'succeeded', 'failed')),
  attempt_count    integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  locked_until     timestamptz,
  last_attempt_at  timestamptz,
  last_status_code integer,
  last_duration_ms integer,
  last_error       text,
  created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  -- fan-out is idempotent: an event reaches a webhook at most once
  UNIQUE (workspace_id, webhook_id, event_id),
  FOREIGN KEY (workspace_id, webhook_id) REFERENCES webhooks (workspace_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (locked_until) WHERE state = 'sending';
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (workspace_id, webhook_id, created_at);

CREATE TABLE webhook_delivery_attempts (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  delivery_id  uuid NOT NULL,
  attempt      integer NOT NULL,
  started_at   timestamptz NOT NULL,
  status_code  integer,
  duration_ms  integer NOT NULL,
  error        text,
  PRIMARY KEY (workspace_id, id),
  -- a claim numbers its attempt; two workers can never record the same attempt
  UNIQUE (workspace_id, delivery_id, attempt),
  FOREIGN KEY (workspace_id, delivery_id) REFERENCES webhook_deliveries (workspace_id, id) ON DELETE CASCADE
);
