-- The online-booking page (/book/<slug>, issue 14).

-- How long before a booking's start a customer may still cancel or reschedule it through the
-- manage link (default 24 h).
ALTER TABLE workspaces ADD COLUMN manage_cutoff_minutes integer NOT NULL DEFAULT 1440
  CHECK (manage_cutoff_minutes BETWEEN 0 AND 525600);
-- Origins (exact https://host[:port]) that may frame the booking page: its CSP frame-ancestors
-- and the only targets of its postMessage calls. Empty = the page cannot be framed.
ALTER TABLE workspaces ADD COLUMN embed_origins jsonb NOT NULL DEFAULT '[]';
-- Server secret of the booking page: signs manage links (HMAC over the booking uuid) and ALTCHA
-- challenges. gen_random_uuid() draws from the server's CSPRNG; two of them give 244 random bits.
ALTER TABLE workspaces ADD COLUMN booking_page_secret text NOT NULL
  DEFAULT replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');

-- One row per form token of the booking page: a double-submitted form finds the booking the
-- first submit made instead of making a second one.
CREATE TABLE booking_page_submissions (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  token        text NOT NULL,
  booking_id   uuid,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, token),
  FOREIGN KEY (workspace_id, booking_id) REFERENCES bookings (workspace_id, id)
);
