-- Distributing Kairos's schema on Citus by workspace (DESIGN §8, docs/operations/scale-out.md).
-- Not run by the app. Run it once, as a superuser, on the coordinator of a Citus cluster whose
-- database already holds the migrated schema (start Kairos once against the coordinator, or run
-- its migrations there), before any tenant data is written.
--
-- Why it works: every tenant table carries workspace_id, and every PK, UNIQUE, EXCLUDE and FK of
-- a tenant table includes it (test/scale/tenant-keys.test.ts), so all of them can be distributed
-- on workspace_id and co-located: one workspace's rows — a booking, its occupancy, its outbox
-- events — sit on one node, its transactions stay there, and the exclusion constraint
-- (workspace_id WITH =, staffer_id WITH =, span WITH &&) is still checked by one node.
--
-- Order matters: Citus refuses to distribute a table with a foreign key to a table that is not
-- distributed yet (or a reference table), so parents come before children.

CREATE EXTENSION IF NOT EXISTS citus;

-- 1. Reference tables: copied to every node, so any shard can join or reference them.
--    workspaces: small, read on every request (by slug, before the workspace is known), written
--    rarely (settings); every tenant table's foreign key to it stays valid on every node.
SELECT create_reference_table('workspaces');
--    users, sessions, password_reset_tokens: the people who sign in to the panel, who may belong
--    to several workspaces (memberships and invites, distributed below, point at users). Small,
--    read by id or token hash; written at sign-in and sign-out.
SELECT create_reference_table('users');
SELECT create_reference_table('sessions');                                                          -- -> users, workspaces
SELECT create_reference_table('password_reset_tokens');                                             -- -> users

-- 2. Global tables that stay local to the coordinator (no create_distributed_table):
--    schema_migrations (the migration ledger), worker_leases and delivery_workers (outbox
--    partition leases of the delivery workers: they are never joined with tenant tables).
-- local: schema_migrations, worker_leases, delivery_workers

-- 3. Tenant tables, distributed by workspace_id and co-located with the first one, in foreign-key
--    order (each table's parents are distributed before it).
SELECT create_distributed_table('locations', 'workspace_id', colocate_with => 'none');
SELECT create_distributed_table('api_keys', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('service_categories', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('services', 'workspace_id', colocate_with => 'locations');           -- -> service_categories
SELECT create_distributed_table('service_locations', 'workspace_id', colocate_with => 'locations');  -- -> services, locations
SELECT create_distributed_table('staffers', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('staffer_services', 'workspace_id', colocate_with => 'locations');   -- -> staffers, locations, services
SELECT create_distributed_table('schedules', 'workspace_id', colocate_with => 'locations');          -- -> staffers, locations
SELECT create_distributed_table('payment_accounts', 'workspace_id', colocate_with => 'locations');   -- -> locations
SELECT create_distributed_table('booking_statuses', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('customers', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('occupancies', 'workspace_id', colocate_with => 'locations');        -- -> staffers
SELECT create_distributed_table('bookings', 'workspace_id', colocate_with => 'locations');           -- -> locations, staffers, customers, booking_statuses, occupancies
SELECT create_distributed_table('booking_services', 'workspace_id', colocate_with => 'locations');   -- -> bookings, services
SELECT create_distributed_table('payments', 'workspace_id', colocate_with => 'locations');           -- -> bookings, payment_accounts
SELECT create_distributed_table('public_notes', 'workspace_id', colocate_with => 'locations');       -- -> bookings
SELECT create_distributed_table('booking_history', 'workspace_id', colocate_with => 'locations');    -- -> bookings
SELECT create_distributed_table('outbox_events', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('idempotency_keys', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('webhooks', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('webhook_deliveries', 'workspace_id', colocate_with => 'locations'); -- -> webhooks
SELECT create_distributed_table('webhook_delivery_attempts', 'workspace_id', colocate_with => 'locations'); -- -> webhook_deliveries
SELECT create_distributed_table('availability_versions', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('memberships', 'workspace_id', colocate_with => 'locations');        -- -> users (reference)
SELECT create_distributed_table('invites', 'workspace_id', colocate_with => 'locations');
SELECT create_distributed_table('booking_page_submissions', 'workspace_id', colocate_with => 'locations'); -- -> bookings
SELECT create_distributed_table('calendar_feeds', 'workspace_id', colocate_with => 'locations');     -- -> staffers, memberships
SELECT create_distributed_table('mail_messages', 'workspace_id', colocate_with => 'locations');      -- -> bookings

-- Tables added by later migrations: distribute each the same way, after its parents, in the
-- release that adds it. test/scale/citus-script.test.ts fails until this file names every table
-- of the migrated schema, each tenant table after its parents.

-- A check afterwards: every table but the global ones is distributed in one co-location group.
SELECT logicalrelid::regclass AS table_name, partmethod, colocationid
FROM pg_dist_partition ORDER BY colocationid, 1;
