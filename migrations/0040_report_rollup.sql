-- Reports read sums per location and local day instead of every booking of the period
-- (docs/reports.md, "How the reports stay fast"). Three tables, each keyed by workspace_id first:
-- Citus distributes them by workspace like the rest.
--
-- report_day_sums: the figures of one local day at one location, one row per measure and key
-- (money by staffer, bookings by source, ...). v1..v3 are counts or minor units, f1 a float sum.
CREATE TABLE report_day_sums (
  workspace_id  uuid NOT NULL,
  location_id   uuid NOT NULL,
  day           date NOT NULL,
  measure       text NOT NULL,
  key           text NOT NULL,
  v1            bigint NOT NULL DEFAULT 0,
  v2            bigint NOT NULL DEFAULT 0,
  v3            bigint NOT NULL DEFAULT 0,
  f1            double precision NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, measure, day, location_id, key)
);

-- report_days: the days whose sums are in report_day_sums. A day not listed (never rolled up, or
-- its location's zone changed) is computed from the bookings before a report reads it.
CREATE TABLE report_days (
  workspace_id  uuid NOT NULL,
  location_id   uuid NOT NULL,
  day           date NOT NULL,
  PRIMARY KEY (workspace_id, location_id, day)
);

-- report_changes: days touched by a write since they were rolled up, appended in the write's own
-- transaction (a booking made, moved, canceled, its services changed, a payment or refund). Only
-- appended, never updated: writers of the same day do not wait for each other. A report takes
-- the rows it sees, recomputes their days and deletes exactly those rows; a row committed after
-- it looked stays for the next report.
CREATE TABLE report_changes (
  workspace_id  uuid NOT NULL,
  id            uuid NOT NULL DEFAULT gen_random_uuid(),
  location_id   uuid NOT NULL,
  day           date NOT NULL,
  PRIMARY KEY (workspace_id, id)
);

-- The Customers report asks, for each customer of the period, whether they had a kept visit
-- before: with canceled_at in the index that question is answered from the index alone.
DROP INDEX bookings_by_customer;
CREATE INDEX bookings_by_customer ON bookings (workspace_id, customer_id, start_time) INCLUDE (canceled_at);
