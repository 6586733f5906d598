-- The audit log (docs/audit-log.md): who changed what in a workspace, written in the change's own
-- transaction. Changes to bookings are not repeated here: booking_history already holds each
-- with its actor, and the log reads both.
CREATE TABLE audit_entries (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  at           timestamptz NOT NULL DEFAULT clock_timestamp(),
  actor_type   text NOT NULL CHECK (actor_type IN ('user', 'api_key', 'cli', 'system')),
  actor_id     uuid,
  action       text NOT NULL,
  subject_id   text,
  details      jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX audit_entries_by_time ON audit_entries (workspace_id, at, id);

-- An operator at the CLI is an actor of its own (an import through the CLI books through the
-- normal create, which writes history).
ALTER TABLE booking_history DROP CONSTRAINT booking_history_actor_type_check;
ALTER TABLE booking_history ADD CONSTRAINT booking_history_actor_type_check
  CHECK (actor_type IN ('api_key', 'user', 'system', 'cli'));
