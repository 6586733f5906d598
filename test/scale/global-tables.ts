/**
 * Tables that are global by design: they have no workspace_id, and each says why. Everything
 * else is a tenant table (test/scale/tenant-keys.test.ts, statement-scope.test.ts); on Citus these
 * are reference or coordinator-local tables (docs/operations/citus.sql).
 */
export const GLOBAL_TABLES: Record<string, string> = {
  schema_migrations: 'the migration ledger of the whole database; written only at start-up',
  workspaces:
    'the tenant list itself: its id is every tenant row’s workspace_id; a Citus reference table, read by slug before the workspace is known',
  worker_leases:
    'which delivery worker holds which outbox partition (a partition spans many workspaces); never touched by a tenant request',
  delivery_workers: 'heartbeats of the delivery worker processes, used to share partitions fairly',
  users:
    'people who sign in to the panel; a user may belong to several workspaces (memberships carry workspace_id)',
  sessions:
    'a signed-in browser of a user, across the workspaces the user belongs to; the workspace it shows is shown_workspace_id',
  password_reset_tokens: 'one-time links of a user, who may belong to several workspaces',
};
