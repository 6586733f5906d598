-- Panel users (issue 12): people who sign in at /panel, their workspace memberships, sessions kept
-- in the database (so signing out or deleting a user ends them at once on every process), invites
-- and password reset tokens. Tokens are stored only as sha256 hashes, like API key secrets.
--
-- users, sessions and password_reset_tokens belong to a person, not to a workspace (a user may be
-- in several). memberships and invites are tenant tables: workspace_id leads every key (DESIGN §4.3).

CREATE TABLE users (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- stored lower-cased and trimmed; the unique key is the sign-in identity
  email                text NOT NULL UNIQUE CHECK (email = lower(btrim(email)) AND email LIKE '%_@_%'),
  name                 text NOT NULL DEFAULT '',
  -- scrypt$N$r$p$salt$hash (src/users/passwords.ts)
  password_hash        text NOT NULL,
  -- a one-time password (first run, `user create`) must be replaced at the first sign-in
  must_change_password boolean NOT NULL DEFAULT false,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE memberships (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role         text NOT NULL CHECK (role IN ('owner', 'admin', 'staff')),
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX memberships_by_user ON memberships (user_id);

CREATE TABLE sessions (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- sha256 of the cookie value; the cookie value itself is never stored
  token_hash   text NOT NULL UNIQUE,
  user_id      uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- the workspace the panel shows (the switcher changes it); membership is re-checked per request.
  -- Not named workspace_id: a session belongs to a person, not to a workspace (a global table, DESIGN §8)
  shown_workspace_id uuid REFERENCES workspaces (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);

CREATE TABLE invites (
  workspace_id uuid NOT NULL REFERENCES workspaces (id),
  id           uuid NOT NULL DEFAULT gen_random_uuid(),
  email        text NOT NULL CHECK (email = lower(btrim(email))),
  role         text NOT NULL CHECK (role IN ('owner', 'admin', 'staff')),
  token_hash   text NOT NULL,
  invited_by   uuid,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  accepted_at  timestamptz,
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, token_hash)
);
-- The invite link carries only the token: looked up by its hash across workspaces.
CREATE INDEX invites_by_token ON invites (token_hash);

CREATE TABLE password_reset_tokens (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);

-- The keys table of Settings -> Developers: who made a key and when it was last used (written at
-- most once a minute per key, so the hot auth path stays a read).
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
ALTER TABLE api_keys ADD COLUMN created_by uuid;

-- The deliveries log shows the start of what the receiver answered.
ALTER TABLE webhook_delivery_attempts ADD COLUMN response_excerpt text;
