-- A CSV file uploaded in the panel's Import, kept between its preview and its run (and its
-- result, so a repeated submit shows what the first did). Deleted with nothing depending on it;
-- the panel lists a workspace's recent ones.
CREATE TABLE import_uploads (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  kind         text NOT NULL CHECK (kind IN ('customers', 'services', 'staffers', 'bookings')),
  file_name    text NOT NULL DEFAULT '',
  content      text NOT NULL,
  created_by   uuid,
  created_at   timestamptz NOT NULL DEFAULT now(),
  ran_at       timestamptz,
  result       jsonb,
  PRIMARY KEY (workspace_id, id)
);
