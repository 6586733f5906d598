-- Every list is one query per page, walked in its order (created_at, id) on an index of the
-- workspace's live rows: without these the lists sorted all of a workspace's rows for each page.
CREATE INDEX staffers_list ON staffers (workspace_id, created_at, id) WHERE archived_at IS NULL;
CREATE INDEX services_list ON services (workspace_id, created_at, id) WHERE archived_at IS NULL;
CREATE INDEX customers_list ON customers (workspace_id, created_at, id);
CREATE INDEX webhooks_list ON webhooks (workspace_id, created_at, id);
