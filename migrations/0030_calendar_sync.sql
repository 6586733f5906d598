-- Two-way calendar sync over CalDAV (issue 28; docs/calendar-sync.md). Nothing changes for a
-- workspace until a staffer connects a calendar: without a row in calendar_connections no busy
-- span exists and the slot engine sees the same input as before. Every key includes
-- workspace_id (DESIGN §4.3), so Citus distributes all three tables by workspace.

-- One connection per staffer. The app password is sealed with the server key
-- (src/platform/secrets.ts, context `calendar-credentials:<workspace id>:<staffer id>`): a dump
-- of this table gives no access to anyone's calendar.
-- read_calendars: the chosen calendars' URLs (JSON array); write_calendar: where bookings go.
-- sync_state: per calendar URL the provider's {syncToken, ctag}. status: ok, failing (unreachable
-- or failing server: last known spans kept, retried with backoff), refused (401/403: the
-- credentials; retried slower, the staffer must act).
CREATE TABLE calendar_connections (
  workspace_id     uuid NOT NULL REFERENCES workspaces (id),
  staffer_id       uuid NOT NULL,
  provider         text NOT NULL DEFAULT 'caldav' CHECK (provider IN ('caldav')),
  server_url       text NOT NULL,
  username         text NOT NULL,
  password_sealed  text NOT NULL,
  read_calendars   jsonb NOT NULL DEFAULT '[]',
  write_calendar   text,
  all_day_blocks   boolean NOT NULL DEFAULT true,
  show_titles      boolean NOT NULL DEFAULT false,
  customer_name_in_events boolean NOT NULL DEFAULT false,
  sync_state       jsonb NOT NULL DEFAULT '{}',
  status           text NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'failing', 'refused')),
  last_error       text,
  failure_count    integer NOT NULL DEFAULT 0,
  last_sync_at     timestamptz,
  last_success_at  timestamptz,
  -- Due for the next sync (the worker claims due rows by moving this on: a lease).
  next_sync_at     timestamptz NOT NULL DEFAULT now(),
  -- Busy spans are expanded up to this instant; the worker re-expands when it comes near.
  expanded_until   timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, staffer_id)
);
ALTER TABLE calendar_connections ADD FOREIGN KEY (workspace_id, staffer_id) REFERENCES staffers (workspace_id, id);
CREATE INDEX calendar_connections_due ON calendar_connections (next_sync_at);

-- The calendar objects as last read (kept so a moving window re-expands without asking the
-- server, and so the fallback sync compares ETags).
CREATE TABLE calendar_objects (
  workspace_id  uuid NOT NULL,
  staffer_id    uuid NOT NULL,
  href          text NOT NULL,
  calendar_url  text NOT NULL,
  etag          text,
  ics           text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, staffer_id, href)
);
ALTER TABLE calendar_objects ADD FOREIGN KEY (workspace_id, staffer_id) REFERENCES calendar_connections (workspace_id, staffer_id) ON DELETE CASCADE;

-- Outside busy time: one row per blocking instance of an object, inside the expansion window,
-- as epoch milliseconds (half-open [start_ms, end_ms)). The slot engine gets them beside the
-- staffer's occupancies (src/slots/slots.repository.ts), read on every time-slot answer: plain
-- float8 columns and a btree on the start, because an instance longer than a day is stored cut
-- into pieces of at most a day, so every piece overlapping [from, to) starts after from - 1 day.
-- (A GiST range scan with bounds read from tstzrange cost twice as much per answer.)
CREATE TABLE calendar_busy_spans (
  workspace_id  uuid NOT NULL,
  id            uuid NOT NULL DEFAULT gen_random_uuid(),
  staffer_id    uuid NOT NULL,
  href          text NOT NULL,
  start_ms      double precision NOT NULL,
  end_ms        double precision NOT NULL,
  all_day       boolean NOT NULL DEFAULT false,
  title         text NOT NULL DEFAULT '',
  PRIMARY KEY (workspace_id, id)
);
ALTER TABLE calendar_busy_spans ADD FOREIGN KEY (workspace_id, staffer_id, href) REFERENCES calendar_objects (workspace_id, staffer_id, href) ON DELETE CASCADE;
CREATE INDEX calendar_busy_spans_start ON calendar_busy_spans (workspace_id, staffer_id, start_ms) INCLUDE (end_ms);
CREATE INDEX calendar_busy_spans_href ON calendar_busy_spans (workspace_id, staffer_id, href);
