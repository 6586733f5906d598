-- A counter every successful write bumps after it commits (src/slots/slots-cache.ts). A sequence,
-- not a row: bumping takes no lock, so concurrent bookings never queue on it.
CREATE SEQUENCE availability_version;
