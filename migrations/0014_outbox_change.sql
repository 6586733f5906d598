-- A booking change's emails are planned from its outbox event, not written by the change itself
-- (issue 15 point 7; docs/decisions/0011-emails-from-the-outbox.md). The last event a change
-- writes names the change (booking_history.action: created, rescheduled, canceled, ...): the
-- dispatcher that turns the event into webhook deliveries queues the change's emails in the same
-- transaction. Events of older versions, whose emails were queued with the change, keep NULL and
-- are never planned twice.
ALTER TABLE outbox_events ADD COLUMN change text;
