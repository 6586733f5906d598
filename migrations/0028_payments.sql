-- Payments (issue 26; docs/payments.md): deposits, prepayment, a card on file, late-cancel and
-- no-show fees, refunds, through a provider chosen per workspace (Stripe first). Card data never
-- reaches us: the provider's hosted page takes it. Every key of the new tables includes
-- workspace_id (DESIGN §4.3). Columns with a check are added in two statements (Citus refuses
-- ADD COLUMN with a constraint).

-- The policy of a service (src/payments/payment-policy.rules.ts reads it, defaults included):
-- '{}' = no payment and no fees, as before this migration.
ALTER TABLE services ADD COLUMN payment_policy jsonb NOT NULL DEFAULT '{}';

-- The workspace's provider settings (never a secret) and its sealed credentials
-- (src/platform/secrets.ts, context `payment-credentials:<workspace id>`); null = no provider.
ALTER TABLE workspaces
  ADD COLUMN payment_settings jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN payment_credentials text;

-- The money state of a booking: NULL = nothing due (every booking before this migration, and
-- every booking of a workspace without a provider). awaiting_payment holds the slot until
-- payment_hold_until; then the sweeper cancels it with reason `abandoned`.
ALTER TABLE bookings ADD COLUMN payment_state text;
ALTER TABLE bookings ADD CONSTRAINT bookings_payment_state_check
  CHECK (payment_state IS NULL OR payment_state IN ('awaiting_payment', 'paid', 'card_on_file', 'refunded', 'failed'));
ALTER TABLE bookings ADD COLUMN payment_hold_until timestamptz;
CREATE INDEX bookings_payment_holds ON bookings (payment_hold_until)
  WHERE payment_state = 'awaiting_payment';

-- A payment row is now one movement of money of the booking's order: the payment recorded at
-- completion (provider 'manual', kind 'payment', as before), a deposit or prepayment taken by the
-- provider, a fee, or a refund. Amounts stay positive minor units; a refund is kind 'refund'.
-- reference is the provider's id (PaymentIntent, Refund); unique per provider, so a webhook and a
-- redirect that tell of the same charge land once.
ALTER TABLE payments ADD COLUMN provider text NOT NULL DEFAULT 'manual';
ALTER TABLE payments ADD COLUMN reference text;
ALTER TABLE payments ADD COLUMN kind text NOT NULL DEFAULT 'payment';
ALTER TABLE payments ADD COLUMN status text NOT NULL DEFAULT 'succeeded';
ALTER TABLE payments ADD CONSTRAINT payments_provider_check CHECK (provider IN ('manual', 'stripe'));
ALTER TABLE payments ADD CONSTRAINT payments_kind_check
  CHECK (kind IN ('payment', 'deposit', 'prepayment', 'late_cancel_fee', 'no_show_fee', 'refund'));
ALTER TABLE payments ADD CONSTRAINT payments_status_check CHECK (status IN ('pending', 'succeeded', 'failed'));
CREATE UNIQUE INDEX payments_provider_reference ON payments (workspace_id, provider, reference)
  WHERE reference IS NOT NULL;

-- Provider events already handled, by the provider's event id: a redelivered webhook is answered
-- 200 and changes nothing.
CREATE TABLE payment_events (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  provider     text NOT NULL,
  event_id     text NOT NULL,
  type         text NOT NULL,
  booking_id   uuid,
  received_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, provider, event_id)
);

-- Calls to the provider we owe (a checkout, a fee, a refund): written in the transaction that
-- decides them, sent by the payment worker with the row id as the provider's Idempotency-Key, so
-- a retry after a crash between the provider's answer and our record is answered by the provider
-- from its idempotency cache and never charges or refunds twice. state: pending (due at
-- next_attempt_at), sending (claimed until next_attempt_at), done, failed.
CREATE TABLE payment_operations (
  workspace_id    uuid NOT NULL REFERENCES workspaces (id),
  id              uuid NOT NULL DEFAULT gen_random_uuid(),
  partition       integer NOT NULL GENERATED ALWAYS AS (uuid_hash(workspace_id) & 31) STORED,
  booking_id      uuid NOT NULL,
  kind            text NOT NULL CHECK (kind IN ('checkout', 'late_cancel_fee', 'no_show_fee', 'refund', 'expire_checkout')),
  amount          integer NOT NULL CHECK (amount >= 0),
  provider        text NOT NULL CHECK (provider IN ('stripe')),
  provider_ref    text,
  -- a checkout's hosted page, while it is open (the booking's `payment` link)
  provider_url    text,
  state           text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'done', 'failed')),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  attempt_count   integer NOT NULL DEFAULT 0,
  last_response   text,
  created_by      text,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
ALTER TABLE payment_operations ADD FOREIGN KEY (workspace_id, booking_id) REFERENCES bookings (workspace_id, id);
CREATE INDEX payment_operations_open ON payment_operations (partition, next_attempt_at) WHERE state IN ('pending', 'sending');
CREATE INDEX payment_operations_by_booking ON payment_operations (workspace_id, booking_id);
