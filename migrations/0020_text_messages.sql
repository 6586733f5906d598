-- Text messages (issue 27; docs/text-messages.md): SMS and WhatsApp to customers, through a
-- provider chosen per workspace. Every key of the new tables includes workspace_id (DESIGN §4.3);
-- the queue is claimed per outbox partition like the mail queue.

-- What a workspace sends by text and through which provider (src/text-messages/
-- text-settings.rules.ts reads it, defaults included). Never a credential: those are sealed with
-- the server key (src/platform/secrets.ts) into text_credentials, so a dump of this column or a
-- log line of the settings gives no provider access.
ALTER TABLE workspaces
  ADD COLUMN text_settings jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN text_credentials text;

-- Quiet hours of a location, local wall times 'HH:MM-HH:MM'; NULL = the default 21:00-08:00.
-- (The column and its check in two statements: Citus refuses ADD COLUMN with a constraint.)
ALTER TABLE locations ADD COLUMN text_quiet_hours text;
ALTER TABLE locations ADD CONSTRAINT locations_text_quiet_hours_check
  CHECK (text_quiet_hours IS NULL OR text_quiet_hours ~ '^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$');

-- Whether the customer agreed to texts on the booking page: NULL = not asked (made elsewhere, or
-- the workspace sends no texts), false = asked and declined.
ALTER TABLE bookings ADD COLUMN text_consent boolean;

-- The text outbox and log: one row per message, written in the transaction that dispatches the
-- booking change it tells of. message_key (booking, kind, revision, offset) is unique, so a
-- redelivered event never queues a second one. `snapshot` is what the text tells, as of its
-- revision; the worker renders the body from it when it sends (the manage link needs the server's
-- public address, which the dispatcher does not know) and keeps body and segments. state: pending (due at next_attempt_at), sending (claimed until
-- next_attempt_at), sent, delivered, failed, undelivered (the provider's word), logged (no
-- provider: kept here only), opted_out (the number sent STOP), dropped (a reminder of a booking
-- that changed), expired (a reminder past the start).
CREATE TABLE text_messages (
  workspace_id    uuid NOT NULL REFERENCES workspaces (id),
  id              uuid NOT NULL DEFAULT gen_random_uuid(),
  partition       integer NOT NULL GENERATED ALWAYS AS (uuid_hash(workspace_id) & 31) STORED,
  booking_id      uuid,
  kind            text NOT NULL CHECK (kind IN ('confirmed', 'rescheduled', 'canceled', 'reminder', 'test')),
  revision        integer NOT NULL,
  message_key     text NOT NULL,
  channel         text NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
  recipient       text NOT NULL,
  provider        text NOT NULL CHECK (provider IN ('none', 'twilio', 'gateway')),
  snapshot        jsonb NOT NULL,
  body            text,
  segments        integer,
  encoding        text CHECK (encoding IN ('gsm7', 'ucs2')),
  state           text NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'sending', 'sent', 'delivered', 'failed', 'undelivered',
                      'logged', 'opted_out', 'dropped', 'expired')),
  due_at          timestamptz NOT NULL,
  starts_at       timestamptz,
  next_attempt_at timestamptz NOT NULL,
  attempt_count   integer NOT NULL DEFAULT 0,
  -- true while an attempt may have reached the provider without its answer being recorded (the
  -- worker died mid-send): the next attempt first asks the provider (src/text-messages/text-worker.ts)
  in_doubt        boolean NOT NULL DEFAULT false,
  provider_ref    text,
  -- the provider's price, in millionths of price_unit (Twilio: USD), positive
  price_micros    bigint,
  price_unit      text,
  last_response   text,
  sent_at         timestamptz,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, message_key)
);
CREATE INDEX text_messages_open ON text_messages (partition, next_attempt_at) WHERE state IN ('pending', 'sending');
CREATE INDEX text_messages_by_booking ON text_messages (workspace_id, booking_id) WHERE state IN ('pending', 'sending');
CREATE INDEX text_messages_log ON text_messages (workspace_id, created_at DESC, id DESC);
-- A status callback names the provider's message.
CREATE INDEX text_messages_ref ON text_messages (workspace_id, provider_ref) WHERE provider_ref IS NOT NULL;

-- Numbers that sent STOP (opted_out) or START again; one row per workspace and number (E.164).
CREATE TABLE text_opt_outs (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  phone        text NOT NULL,
  opted_out    boolean NOT NULL,
  keyword      text NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, phone)
);

-- Inbound messages, one per provider message id: a provider's retry of the same webhook finds
-- its row and changes nothing more.
CREATE TABLE text_inbound (
  workspace_id        uuid NOT NULL REFERENCES workspaces (id),
  provider            text NOT NULL,
  provider_message_id text NOT NULL,
  phone               text NOT NULL,
  body                text NOT NULL,
  action              text NOT NULL,
  booking_id          uuid,
  received_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, provider, provider_message_id)
);
