-- Bookings out to a staffer's own calendar (docs/calendar-sync.md "Bookings out"). Nothing
-- changes for a workspace whose staffers have no connection with a write_calendar: the outbox
-- handler queues nothing for them. Every key includes workspace_id, so Citus distributes both
-- tables by workspace; no foreign keys (a booking's rows go with the booking's workspace, and a
-- queue row whose booking is gone is sent as a delete).

-- One row per booking revision to send: the outbox handler inserts it in the dispatch
-- transaction, and the primary key makes a redelivered event queue nothing. The worker brings
-- the staffer's calendar to the booking's state as it is when the row is sent (a later revision
-- makes an earlier row's send a no-op), claims due rows by moving next_attempt_at on (a lease),
-- and retries with backoff. done_at: sent, or given up after too many failures (last_error says).
CREATE TABLE calendar_writes (
  workspace_id     uuid NOT NULL,
  booking_id       uuid NOT NULL,
  revision         integer NOT NULL,
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz NOT NULL DEFAULT now(),
  last_error       text,
  done_at          timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, booking_id, revision)
);
CREATE INDEX calendar_writes_due ON calendar_writes (next_attempt_at) WHERE done_at IS NULL;

-- The event a booking has in a staffer's calendar now: where it is and its ETag, for the
-- If-Match of the next update or delete. revision: the booking revision it shows.
CREATE TABLE calendar_booking_events (
  workspace_id  uuid NOT NULL,
  booking_id    uuid NOT NULL,
  staffer_id    uuid NOT NULL,
  href          text NOT NULL,
  etag          text,
  revision      integer NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, booking_id)
);
