-- Every list has one order, the same on every store: ties in created_at (rows made in one
-- transaction share it) or in start_time were broken by the uuid, which is random, so two stores
-- seeded alike listed them differently. Tables with an integer identity break ties with it: it
-- follows insertion order. The list indexes follow the new order.
CREATE INDEX services_list_order ON services (workspace_id, created_at, int_id) WHERE archived_at IS NULL;
DROP INDEX services_list;
CREATE INDEX customers_list_order ON customers (workspace_id, created_at, int_id);
DROP INDEX customers_list;
CREATE INDEX bookings_by_start_order ON bookings (workspace_id, start_time, int_id);
DROP INDEX bookings_by_start;
