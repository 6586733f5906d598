import { EVENT_TYPES_BY_SUBJECT } from '../outbox/event-types.js';
import type { OutboxHandler } from '../outbox/handlers.js';
import { queueChangeNotifications } from './booking-notifications.service.js';
import { queuePaymentNotifications } from './payment-notifications.service.js';

/**
 * A booking change's emails, planned from the last event of the change (the one that names it)
 * and queued for the mail worker (docs/decisions/0011-emails-from-the-outbox.md). Emails that
 * cannot be planned (a fault that would recur every round) must not hold up the webhooks: they
 * are logged and the events dispatched without them.
 */
export const emailHandler: OutboxHandler = {
  name: 'emails',
  types: EVENT_TYPES_BY_SUBJECT.booking,
  onFault: 'skip',
  handle: async (tx, { workspaceId, events }) => {
    const changes = events.filter((event) => event.change !== null);
    if (changes.length > 0) await queueChangeNotifications(tx, workspaceId, changes);
  },
};

/**
 * The customer's email about each movement of their booking's money (docs/payments.md), from its
 * payment event. Like the booking emails, a fault here must not hold up the webhooks.
 */
export const paymentEmailHandler: OutboxHandler = {
  name: 'payment_emails',
  types: EVENT_TYPES_BY_SUBJECT.payment,
  onFault: 'skip',
  handle: (tx, { workspaceId, events }) => queuePaymentNotifications(tx, workspaceId, events),
};
