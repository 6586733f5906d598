-- Rentals (docs/resources.md "Rentals"): a service that needs a resource and no staffer — a
-- tennis court, a sauna, a meeting room booked by itself. Its bookings and their sessions have
-- no staffer.
ALTER TABLE services ADD COLUMN staffer_needed boolean NOT NULL DEFAULT true;

-- A rental's booking and its session (occupancy) name no staffer. The constraints on
-- occupancies need no change for them: NULLs are distinct in the UNIQUE (workspace_id,
-- staffer_id, service_start, service_id), so each rental booking inserts a session of its own
-- (the create's ON CONFLICT never merges two), and `staffer_id WITH =` of the exclusion
-- constraint is never true for NULL, so sessions without a staffer never refuse each other
-- there. What refuses a double booking of a rental is the exclusion constraint of
-- resource_occupancies on the units the session holds.
ALTER TABLE occupancies ALTER COLUMN staffer_id DROP NOT NULL;
ALTER TABLE bookings ALTER COLUMN staffer_id DROP NOT NULL;
