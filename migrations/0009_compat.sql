-- Drop-in compatibility for integrations written against the real service (issue 16).

-- Integer ids for the legacy webhook body (docs/webhooks.md): one global identity per table.
-- An id is not an ordering sequence (DESIGN §8 wants those per workspace); a global identity
-- needs no lock and no counter row, so inserts of one workspace never queue on it
-- (docs/decisions/0009-integer-ids.md). ADD COLUMN numbers the rows that already exist.
ALTER TABLE bookings  ADD COLUMN int_id bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE customers ADD COLUMN int_id bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE locations ADD COLUMN int_id bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE services  ADD COLUMN int_id bigint GENERATED ALWAYS AS IDENTITY;

-- Per subscription: which body to send, and static headers the receiver checks (a shared
-- token). Header values are kept like the signing secret: in clear, shown only once.
ALTER TABLE webhooks
  ADD COLUMN format text NOT NULL DEFAULT 'standard' CHECK (format IN ('standard', 'legacy')),
  ADD COLUMN headers jsonb NOT NULL DEFAULT '{}';

-- What GET /workspace shows integrations about the business.
ALTER TABLE workspaces
  ADD COLUMN country_iso text NOT NULL DEFAULT '' CHECK (country_iso ~ '^([A-Z]{2})?$'),
  ADD COLUMN contact_phone text NOT NULL DEFAULT '',
  ADD COLUMN contact_email text NOT NULL DEFAULT '';

-- New workspaces assign staffers automatically (SPEC: integrations that never send a staffer
-- work). Only the default changes: existing workspaces keep the value they have.
ALTER TABLE workspaces ALTER COLUMN staffer_selection SET DEFAULT 'automatic';

-- GET /orders/{uuid} finds a booking by its order's uuid; one order per booking.
CREATE UNIQUE INDEX bookings_by_order ON bookings (workspace_id, order_id);
