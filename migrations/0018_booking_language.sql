-- The language the customer booked in (the booking page's: `en`, `de`, `ar`, ...), so their
-- emails speak it. NULL for bookings made elsewhere (API, panel, CLI) and for those made before:
-- their emails keep using the workspace locale.
ALTER TABLE bookings ADD COLUMN language text;
