import { EVENT_TYPES_BY_SUBJECT } from '../outbox/event-types.js';
import type { OutboxHandler } from '../outbox/handlers.js';
import { queueChangeTexts } from './text-queue.service.js';

/**
 * A booking change's text messages, planned from the last event of the change and queued for the
 * text worker, like the emails. Texts that cannot be planned must not hold up webhooks or emails:
 * a fault is logged and the events dispatched without them.
 */
export const textMessageHandler: OutboxHandler = {
  name: 'text_messages',
  types: EVENT_TYPES_BY_SUBJECT.booking,
  onFault: 'skip',
  handle: async (tx, { workspaceId, events }) => {
    const changes = events.filter((event) => event.change !== null);
    if (changes.length > 0) await queueChangeTexts(tx, workspaceId, changes);
  },
};
