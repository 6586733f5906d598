-- Customer data rights (docs/customer-data.md). An erased customer keeps its row, so its bookings
-- and orders still add up, with every personal field emptied and `erased_at` set. Its phone is
-- emptied too, so "one customer per phone" now holds among customers not erased, and a new booking
-- with the old number makes a new customer. The plain index serves lookups by phone, which do not
-- name erased_at.
ALTER TABLE customers ADD COLUMN erased_at timestamptz;
ALTER TABLE customers DROP CONSTRAINT customers_workspace_id_phone_key;
CREATE UNIQUE INDEX customers_live_phone ON customers (workspace_id, phone) WHERE erased_at IS NULL;
CREATE INDEX customers_by_phone ON customers (workspace_id, phone);

-- Erase customers with no booking for this many months (the worker's retention sweep); NULL, the
-- default, never: existing workspaces are unchanged until they opt in.
-- (Column and check apart: Citus refuses ADD COLUMN with a constraint.)
ALTER TABLE workspaces ADD COLUMN customer_retention_months integer;
ALTER TABLE workspaces ADD CONSTRAINT workspaces_customer_retention_months_check
  CHECK (customer_retention_months BETWEEN 1 AND 240);
