-- Edits read back (docs/calendar-sync.md "Edits read back"): when the sync sees that an event
-- Kairos wrote for a booking was moved or deleted in the staffer's own calendar, the booking is
-- never changed silently. The change waits on the booking's event row until someone in the panel
-- applies it (the normal reschedule or cancel) or ignores it (the event is written again as the
-- booking has it). No new table: the columns sit on rows already distributed by workspace_id.

-- outside_change: 'moved' (outside_start/outside_end: the event's new times) or 'deleted'; null
-- when nothing waits. outside_seen_at: when the sync saw it.
ALTER TABLE calendar_booking_events ADD COLUMN outside_change text;
ALTER TABLE calendar_booking_events ADD COLUMN outside_start timestamptz;
ALTER TABLE calendar_booking_events ADD COLUMN outside_end timestamptz;
ALTER TABLE calendar_booking_events ADD COLUMN outside_seen_at timestamptz;
ALTER TABLE calendar_booking_events ADD CONSTRAINT calendar_booking_events_outside_change
  CHECK (outside_change IS NULL OR outside_change IN ('moved', 'deleted'));

-- A write queued to put the event back as the booking has it (ignore an outside edit, or a
-- customer's name erased): sent even though the calendar already shows the booking's revision.
ALTER TABLE calendar_writes ADD COLUMN rewrite boolean NOT NULL DEFAULT false;

-- The staffer is told of an outside edit by email (kind staff_calendar_edit), once per edit seen.
ALTER TABLE mail_messages DROP CONSTRAINT mail_messages_kind_check;
ALTER TABLE mail_messages ADD CONSTRAINT mail_messages_kind_check
  CHECK (kind IN ('confirmed', 'rescheduled', 'canceled', 'completed', 'reminder', 'staff_new',
                  'staff_changed', 'staff_canceled', 'test', 'payment_received', 'payment_refunded',
                  'payment_failed', 'staff_calendar_edit'));
