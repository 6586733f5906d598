-- Named locks of one workspace: a row per (workspace, what it serialises), made on first use.
-- They replace row locks on `workspaces`, which on Citus is a reference table: locking one of its
-- rows locks that row on every node, in a transaction that then spans them all (a two-phase
-- commit), and every workspace's dispatcher queued behind every other's. A row here lives on its
-- workspace's own shard (src/platform/db/workspace-locks.repository.ts).
CREATE TABLE workspace_locks (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  name         text NOT NULL,
  PRIMARY KEY (workspace_id, name)
);
