-- Reports (docs/reports.md). Where a booking page booking came from: the `?ref=` of the link the
-- customer followed (a campaign, a partner's site), kept apart from `source` so the API's and the
-- legacy body's `source` stay what they were. And the orders the reports read in: bookings made
-- in a period (sources, lead time) and money taken in a period (revenue).
ALTER TABLE bookings ADD COLUMN ref text;
CREATE INDEX bookings_by_created ON bookings (workspace_id, created_at);
CREATE INDEX payments_by_created ON payments (workspace_id, created_at);
-- What Home lists as needing attention: the failures of the last days, found without scanning
-- every delivery and message of the workspace.
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (workspace_id, updated_at) WHERE state = 'failed';
CREATE INDEX mail_messages_failed ON mail_messages (workspace_id, updated_at) WHERE state = 'failed';
CREATE INDEX text_messages_failed ON text_messages (workspace_id, updated_at)
  WHERE state IN ('failed', 'undelivered');
