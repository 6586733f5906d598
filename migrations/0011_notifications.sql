-- Email notifications (issue 15; docs/notifications.md). Every key of the new table includes
-- workspace_id (DESIGN §4.3), and it is claimed per outbox partition like webhook deliveries.

-- Which customer emails a workspace sends, its reminder offsets (0-2, minutes before the start),
-- the sender's display name and a reply-to address. Read through src/notifications/
-- notification-settings.rules.ts, which supplies the defaults for keys not set here.
ALTER TABLE workspaces ADD COLUMN notification_settings jsonb NOT NULL DEFAULT '{}';

-- Staff emails: a staffer gets new, changed and canceled bookings at the email of the panel user
-- linked to it (while that user is a member of the workspace), else at its own email address.
-- booking_emails is what that person chose of 'new', 'changed' and 'canceled'.
ALTER TABLE staffers
  ADD COLUMN email text CHECK (email IS NULL OR email LIKE '%_@_%'),
  ADD COLUMN user_id uuid,
  ADD COLUMN booking_emails jsonb NOT NULL DEFAULT '["new", "changed", "canceled"]';

-- The mail outbox and log: one row per message to one recipient, written in the transaction of
-- the booking change it tells of. message_key is derived from (booking, kind, revision, variant):
-- unique, so a change is told at most once, and the SMTP Message-ID is made from it, so a retry
-- after an unclear SMTP answer is the same message to the receiving side.
-- state: pending (due at next_attempt_at), sending (claimed until next_attempt_at: a lease),
-- sent, logged (no SMTP_URL: kept here, not sent), failed (refused or retries used up),
-- dropped (a reminder whose booking changed or ended), expired (a reminder past the start).
CREATE TABLE mail_messages (
  workspace_id    uuid NOT NULL REFERENCES workspaces (id),
  id              uuid NOT NULL DEFAULT gen_random_uuid(),
  partition       integer NOT NULL GENERATED ALWAYS AS (uuid_hash(workspace_id) & 31) STORED,
  booking_id      uuid,
  kind            text NOT NULL CHECK (kind IN ('confirmed', 'rescheduled', 'canceled', 'completed',
                    'reminder', 'staff_new', 'staff_changed', 'staff_canceled', 'test')),
  -- the booking's event sequence after the change (bookings.event_sequence); 0 for test emails
  revision        integer NOT NULL,
  message_key     text NOT NULL,
  recipient       text NOT NULL,
  -- what the message tells, as of its revision (src/notifications/mail-message.ts)
  snapshot        jsonb NOT NULL,
  state           text NOT NULL DEFAULT 'pending'
                    CHECK (state IN ('pending', 'sending', 'sent', 'logged', 'failed', 'dropped', 'expired')),
  -- when it is meant to go: at once, or a reminder's time
  due_at          timestamptz NOT NULL,
  -- the booking's start at this revision: a reminder is never sent once it has passed
  starts_at       timestamptz,
  next_attempt_at timestamptz NOT NULL,
  attempt_count   integer NOT NULL DEFAULT 0,
  subject         text,
  body_text       text,
  -- the SMTP server's last answer (or the connection error), and when the message left
  last_response   text,
  sent_at         timestamptz,
  created_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, message_key)
);
-- The workers' poll: due or lease-expired messages of their partitions.
CREATE INDEX mail_messages_open ON mail_messages (partition, next_attempt_at) WHERE state IN ('pending', 'sending');
-- A change drops its booking's pending reminders; a message waits for its booking's earlier ones.
CREATE INDEX mail_messages_open_by_booking ON mail_messages (workspace_id, booking_id)
  WHERE state IN ('pending', 'sending');
-- The mail log, newest first.
CREATE INDEX mail_messages_log ON mail_messages (workspace_id, created_at DESC, id DESC);
