-- Scale-out by workspace (DESIGN §8, issue 17). Every key of a tenant table already includes
-- workspace_id (test/scale/tenant-keys.test.ts checks it after every migration); what this adds
-- is the outbox claimed per partition instead of one SKIP LOCKED poll across all workspaces.

-- A workspace's partition: its id hashed into 32 (a power of two, so `& 31` is the modulo for
-- negative hashes too). Stored, so the partition indexes below can serve a worker's poll.
ALTER TABLE outbox_events
  ADD COLUMN partition integer NOT NULL GENERATED ALWAYS AS (uuid_hash(workspace_id) & 31) STORED;
DROP INDEX outbox_events_pending;
CREATE INDEX outbox_events_pending ON outbox_events (partition, workspace_id) WHERE dispatched_at IS NULL;

-- A delivery keeps its event's booking and per-booking sequence, so a worker sends a booking's
-- events to one webhook in order: the next one only after the one before it was attempted.
ALTER TABLE webhook_deliveries
  ADD COLUMN partition integer NOT NULL GENERATED ALWAYS AS (uuid_hash(workspace_id) & 31) STORED,
  ADD COLUMN booking_id uuid,
  ADD COLUMN sequence integer;
UPDATE webhook_deliveries AS d SET booking_id = e.booking_id, sequence = e.sequence
FROM outbox_events AS e WHERE e.workspace_id = d.workspace_id AND e.id = d.event_id;
DROP INDEX webhook_deliveries_due;
DROP INDEX webhook_deliveries_leased;
CREATE INDEX webhook_deliveries_open ON webhook_deliveries (partition, workspace_id)
  WHERE state IN ('pending', 'sending');
CREATE INDEX webhook_deliveries_open_by_booking ON webhook_deliveries (workspace_id, webhook_id, booking_id, sequence)
  WHERE state IN ('pending', 'sending');

-- Which worker holds which partition, until when. One row per partition; a worker renews its
-- leases while it lives, and a lease that ran out (its worker died) is free for another.
CREATE TABLE worker_leases (
  partition   integer PRIMARY KEY CHECK (partition BETWEEN 0 AND 31),
  holder      text,
  lease_until timestamptz
);
INSERT INTO worker_leases (partition) SELECT generate_series(0, 31);

-- Live workers, by heartbeat: each takes about partitions / live workers, so a new worker gets
-- its share from the others as they give back what exceeds theirs.
CREATE TABLE delivery_workers (
  id          text PRIMARY KEY,
  alive_until timestamptz NOT NULL
);
