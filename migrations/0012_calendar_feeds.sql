-- Calendar feeds (issue 15 point 5, docs/calendar-feeds.md): a secret iCalendar URL
-- (/ical/<token>.ics) per staffer, and per panel user for their own bookings.

-- Which staffer a member of the workspace is: a user's own bookings are that staffer's. At most
-- one member per staffer; removing the member (or the user) removes the link with the row.
ALTER TABLE memberships ADD COLUMN staffer_id uuid;
ALTER TABLE memberships
  ADD CONSTRAINT memberships_staffer_fk FOREIGN KEY (workspace_id, staffer_id) REFERENCES staffers (workspace_id, id),
  ADD CONSTRAINT memberships_one_per_staffer UNIQUE (workspace_id, staffer_id);

-- One feed per staffer and per member. The token is never stored: it is the workspace id and an
-- HMAC of (feed id, nonce) under the workspace's secret, so the panel can show the URL again;
-- the lookup goes by its sha256 (token_hash). Regenerating draws a new nonce, and with it a new
-- token and hash: the old URL finds nothing from that commit on.
CREATE TABLE calendar_feeds (
  workspace_id   uuid NOT NULL REFERENCES workspaces (id),
  id             uuid NOT NULL DEFAULT gen_random_uuid(),
  staffer_id     uuid,
  user_id        uuid,
  nonce          text NOT NULL,
  token_hash     text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  regenerated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, token_hash),
  UNIQUE (workspace_id, staffer_id),
  UNIQUE (workspace_id, user_id),
  FOREIGN KEY (workspace_id, staffer_id) REFERENCES staffers (workspace_id, id),
  -- A member's feed ends with the membership (a removed member's URL stops at once).
  FOREIGN KEY (workspace_id, user_id) REFERENCES memberships (workspace_id, user_id) ON DELETE CASCADE,
  CHECK ((staffer_id IS NULL) <> (user_id IS NULL))
);
