-- Recurring bookings (docs/series.md): a series is a rule (every N days, every N weeks on chosen
-- weekdays, or monthly on the same weekday; ending on a date or after a count, at most 52) and
-- the normal bookings made from it, each linked by bookings.series_id. Each occurrence keeps its
-- own seat, history and events; the series only remembers the rule and its own events' sequence.
-- first_date / until_date are local dates of the location ('YYYY-MM-DD', text so no driver reads
-- them as an instant), wall_minute the wall time kept across DST changes.
-- Keyed by workspace_id first: Citus distributes it by workspace with the other tenant tables.
CREATE TABLE booking_series (
  workspace_id      uuid NOT NULL REFERENCES workspaces (id),
  id                uuid NOT NULL DEFAULT gen_random_uuid(),
  location_id       uuid NOT NULL,
  customer_id       uuid NOT NULL,
  frequency         text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  interval_count    integer NOT NULL CHECK (interval_count BETWEEN 1 AND 52),
  weekdays          text NOT NULL DEFAULT '',
  first_date        text NOT NULL CHECK (first_date ~ '^\d{4}-\d{2}-\d{2}$'),
  wall_minute       integer NOT NULL CHECK (wall_minute BETWEEN 0 AND 1439),
  until_date        text CHECK (until_date ~ '^\d{4}-\d{2}-\d{2}$'),
  occurrence_count  integer CHECK (occurrence_count BETWEEN 1 AND 52),
  mode              text NOT NULL CHECK (mode IN ('all_or_nothing', 'book_free')),
  event_sequence    integer NOT NULL DEFAULT 0,
  created_by_key_id uuid,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  canceled_at       timestamptz,
  PRIMARY KEY (workspace_id, id),
  CHECK ((until_date IS NULL) <> (occurrence_count IS NULL))
);
ALTER TABLE booking_series ADD CONSTRAINT booking_series_location_fk
  FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id);
ALTER TABLE booking_series ADD CONSTRAINT booking_series_customer_fk
  FOREIGN KEY (workspace_id, customer_id) REFERENCES customers (workspace_id, id);

-- The occurrences of a series; null for a booking made on its own (every booking so far).
ALTER TABLE bookings ADD COLUMN series_id uuid;
ALTER TABLE bookings ADD CONSTRAINT bookings_series_fk
  FOREIGN KEY (workspace_id, series_id) REFERENCES booking_series (workspace_id, id);
CREATE INDEX bookings_by_series ON bookings (workspace_id, series_id, start_time) WHERE series_id IS NOT NULL;

-- A service the business offers as bookable in series on its booking page (off: nothing changes
-- for an existing workspace). The API and the panel may make a series of any service.
ALTER TABLE services ADD COLUMN series_bookable boolean NOT NULL DEFAULT false;
