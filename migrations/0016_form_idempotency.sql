-- One idempotency mechanism for every surface: the API's Idempotency-Key header and the hidden
-- key of every panel and booking-page form that creates or changes something take the same row
-- here, in the write's transaction. A form's answer is a redirect: its target is kept beside the
-- status, so a repeated submit is sent where the first one went.
ALTER TABLE idempotency_keys ADD COLUMN response_location text;

-- The booking page's own form tokens, replaced by the keys above.
DROP TABLE booking_page_submissions;
