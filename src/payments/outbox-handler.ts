import type { OutboxHandler } from '../outbox/handlers.js';
import { settleCancellation } from './payments.service.js';

/**
 * A canceled booking's money (refund, late-cancel or no-show fee), settled from its
 * `booking-canceled` event in the transaction that dispatches it: exactly once per cancellation,
 * whichever surface canceled (API, panel, the manage page). A fault rolls the dispatch back and
 * the next round tries again: money owed must not be skipped.
 */
export const paymentHandler: OutboxHandler = {
  name: 'payments',
  types: ['booking-canceled'],
  onFault: 'retry',
  handle: async (tx, { workspaceId, events, now }) => {
    for (const event of events) {
      if (!event.booking_id) continue;
      const at = Date.parse(String((event.payload as { timestamp?: unknown }).timestamp ?? ''));
      await settleCancellation(tx, workspaceId, event.booking_id, Number.isFinite(at) ? at : now, now);
    }
  },
};
