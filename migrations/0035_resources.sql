-- Resources (docs/resources.md): rooms, chairs, equipment of a location that a service needs
-- besides (or instead of) a staffer. Nothing changes for a workspace without resources: a
-- service with no requirements ('[]') never reads or writes the two tables below.

-- One unit of a location: a room, a chair, a court. type groups units a service can take any of;
-- capacity is how many people the unit holds (shown, and a group class asks for a unit at least
-- as big as the class). Archived, never deleted: bookings keep pointing at the units they held.
CREATE TABLE resources (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  location_id  uuid NOT NULL,
  type         text NOT NULL CHECK (type ~ '^[a-z][a-z0-9_-]{0,39}$'),
  name         text NOT NULL,
  capacity     integer NOT NULL DEFAULT 1 CHECK (capacity BETWEEN 1 AND 1000),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  archived_at  timestamptz,
  PRIMARY KEY (workspace_id, id)
);
ALTER TABLE resources ADD CONSTRAINT resources_location_fk
  FOREIGN KEY (workspace_id, location_id) REFERENCES locations (workspace_id, id);
CREATE INDEX resources_by_location ON resources (workspace_id, location_id, type, created_at)
  WHERE archived_at IS NULL;

-- What a service needs, on the service row (read with it on every time-slot answer and create,
-- so a service needing nothing costs no extra statement): [{"type","units","resource_id"}], where
-- resource_id names one unit (units 1) or is null (any free units of the type at the location).
ALTER TABLE services ADD COLUMN resource_requirements jsonb NOT NULL DEFAULT '[]';

-- What makes double booking of a unit impossible, like occupancies for staffers (decision 0003):
-- one row per unit held by a staffer occupancy (a session: one booking, or one group class
-- however many seats), with the occupancy's span (buffers included). The database refuses two
-- overlapping rows of one unit (EXCLUDE, workspace_id in it so Citus can enforce it per shard).
-- Rows go when their occupancy's last seat is released.
-- start_ms/end_ms: the span's bounds as epoch milliseconds, written with it, for the time-slot
-- read (src/resources/resource-occupancies.repository.ts): a btree on the start, read index-only,
-- costs a third of a GiST range scan with bounds read from tstzrange (as calendar_busy_spans,
-- migration 0030). A session's span is at most 2 days (duration and buffers are capped), so
-- every span overlapping [from, to) starts after from - 2 days.
CREATE TABLE resource_occupancies (
  workspace_id  uuid NOT NULL,
  id            uuid NOT NULL DEFAULT gen_random_uuid(),
  occupancy_id  uuid NOT NULL,
  resource_id   uuid NOT NULL,
  span          tstzrange NOT NULL,
  start_ms      double precision NOT NULL,
  end_ms        double precision NOT NULL,
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, occupancy_id, resource_id),
  CHECK (start_ms = date_part('epoch', lower(span)) * 1000 AND end_ms = date_part('epoch', upper(span)) * 1000),
  CONSTRAINT resource_occupancies_no_overlap EXCLUDE USING gist (workspace_id WITH =, resource_id WITH =, span WITH &&)
);
CREATE INDEX resource_occupancies_start ON resource_occupancies (workspace_id, resource_id, start_ms) INCLUDE (end_ms);
ALTER TABLE resource_occupancies ADD CONSTRAINT resource_occupancies_occupancy_fk
  FOREIGN KEY (workspace_id, occupancy_id) REFERENCES occupancies (workspace_id, id);
ALTER TABLE resource_occupancies ADD CONSTRAINT resource_occupancies_resource_fk
  FOREIGN KEY (workspace_id, resource_id) REFERENCES resources (workspace_id, id);
