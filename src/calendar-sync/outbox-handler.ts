import { EVENT_TYPES_BY_SUBJECT } from '../outbox/event-types.js';
import type { OutboxHandler } from '../outbox/handlers.js';
import { queueBookingWrites } from './calendar-writes.service.js';

/**
 * A booking's changes out to its staffer's own calendar: queued here, in the dispatch
 * transaction, and sent by CalendarWriteWorker. A calendar that cannot be queued for must not hold
 * up webhooks, emails or texts: a fault is logged and the events dispatched without it.
 */
export const calendarWriteHandler: OutboxHandler = {
  name: 'calendar_writes',
  types: EVENT_TYPES_BY_SUBJECT.booking,
  onFault: 'skip',
  handle: (tx, { workspaceId, events, now }) => queueBookingWrites(tx, workspaceId, events, now),
};
