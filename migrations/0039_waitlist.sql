-- The waitlist (docs/waitlist.md): customers waiting for a time of a service (optionally with one
-- staffer), and the offers Kairos makes them when a matching time frees. Both tables are keyed by
-- workspace_id first: the migrator distributes them by workspace on Citus, beside the bookings
-- they lead to.

-- The workspace's waitlist settings, read through src/waitlist/waitlist-settings.rules.ts:
-- {"offer_mode": "one" | "all", "hold_minutes": 30, "autofill_classes": false}.
ALTER TABLE workspaces ADD COLUMN waitlist_settings jsonb NOT NULL DEFAULT '{}';

-- One person waiting. windows: up to five [{"date":"YYYY-MM-DD","from":"HH:MM","to":"HH:MM"}] in
-- the location's wall time; any_time: every bookable time of the service is welcome. The line is
-- ordered by joined_at (the clock at the join), then id.
CREATE TABLE waitlist_entries (
  workspace_id  uuid NOT NULL REFERENCES workspaces (id),
  id            uuid NOT NULL DEFAULT gen_random_uuid(),
  customer_id   uuid NOT NULL,
  location_id   uuid NOT NULL,
  service_id    uuid NOT NULL,
  staffer_id    uuid,
  windows       jsonb NOT NULL DEFAULT '[]',
  any_time      boolean NOT NULL DEFAULT false,
  language      text,
  source        text NOT NULL DEFAULT 'api',
  state         text NOT NULL DEFAULT 'waiting' CHECK (state IN ('waiting', 'offered', 'booked', 'left')),
  joined_at     timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  booking_id    uuid,
  PRIMARY KEY (workspace_id, id),
  CHECK (any_time OR jsonb_array_length(windows) BETWEEN 1 AND 5)
);
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_customer_fk
  FOREIGN KEY (workspace_id, customer_id) REFERENCES customers (workspace_id, id);
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_location_fk
  FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id);
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_service_fk
  FOREIGN KEY (workspace_id, service_id) REFERENCES services (workspace_id, id);
ALTER TABLE waitlist_entries ADD CONSTRAINT waitlist_entries_staffer_fk
  FOREIGN KEY (workspace_id, staffer_id) REFERENCES staffers (workspace_id, id);
-- The line of a service: who is next, in the order they joined.
CREATE INDEX waitlist_entries_line ON waitlist_entries (workspace_id, service_id, joined_at, id)
  WHERE state IN ('waiting', 'offered');
CREATE INDEX waitlist_entries_by_customer ON waitlist_entries (workspace_id, customer_id);

-- A time offered to one entry. While open (until held_until) the waitlist offers that time to
-- nobody else; the database still decides who books it (a direct booking may take it: the
-- claim then answers that the time was taken, decision 0039). The unique index makes "one open
-- offer per entry" and "one claim per offer" the database's rule, not the code's.
-- token_hash: sha256 of the link's secret, hex; the secret itself is never stored.
CREATE TABLE waitlist_offers (
  workspace_id   uuid NOT NULL,
  id             uuid NOT NULL DEFAULT gen_random_uuid(),
  entry_id       uuid NOT NULL,
  location_id    uuid NOT NULL,
  service_id     uuid NOT NULL,
  staffer_id     uuid,
  starts_at      timestamptz NOT NULL,
  held_until     timestamptz NOT NULL,
  state          text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'claimed', 'expired', 'withdrawn')),
  token_hash     text NOT NULL,
  made_by        text NOT NULL DEFAULT 'freed' CHECK (made_by IN ('freed', 'staff')),
  booking_id     uuid,
  event_sequence integer NOT NULL DEFAULT 1,
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, token_hash)
);
ALTER TABLE waitlist_offers ADD CONSTRAINT waitlist_offers_entry_fk
  FOREIGN KEY (workspace_id, entry_id) REFERENCES waitlist_entries (workspace_id, id);
CREATE UNIQUE INDEX waitlist_offers_one_open ON waitlist_offers (workspace_id, entry_id) WHERE state = 'open';
CREATE INDEX waitlist_offers_open_by_time ON waitlist_offers (workspace_id, service_id, starts_at)
  WHERE state = 'open';
CREATE INDEX waitlist_offers_due ON waitlist_offers (held_until) WHERE state = 'open';

-- The offer's email and text message (kind waitlist_offer): queued from its
-- waitlist-offer-created event, once, like a booking's; booking_id is null (no booking yet).
ALTER TABLE mail_messages DROP CONSTRAINT mail_messages_kind_check;
ALTER TABLE mail_messages ADD CONSTRAINT mail_messages_kind_check
  CHECK (kind IN ('confirmed', 'rescheduled', 'canceled', 'completed', 'reminder', 'staff_new',
                  'staff_changed', 'staff_canceled', 'test', 'payment_received', 'payment_refunded',
                  'payment_failed', 'staff_calendar_edit', 'waitlist_offer'));
ALTER TABLE text_messages DROP CONSTRAINT text_messages_kind_check;
ALTER TABLE text_messages ADD CONSTRAINT text_messages_kind_check
  CHECK (kind IN ('confirmed', 'rescheduled', 'canceled', 'reminder', 'test', 'waitlist_offer'));
