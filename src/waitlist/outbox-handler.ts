import type { OutboxHandler } from '../outbox/handlers.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import { queueOfferMessages } from './offer-messages.service.js';
import { offerOpenedTimes } from './opened-times.service.js';
import { bookingPlace, startBeforeLastReschedule } from './waitlist.repository.js';
import { offerFreedTime } from './waitlist-offers.service.js';

/**
 * "A time frees": a canceled booking's time, or the time a rescheduled booking left, is offered
 * from the waitlist in the transaction that dispatches the event (offerFreedTime checks it is
 * really free and held for nobody). A fault is skipped: the waitlist must not hold up webhooks,
 * emails or money, and a time missed here can still be offered by hand.
 */
export const waitlistHandler: OutboxHandler = {
  name: 'waitlist',
  types: ['booking-canceled', 'booking-rescheduled'],
  onFault: 'skip',
  handle: async (tx, { workspaceId, events, now }) => {
    const workspace = await findWorkspaceById(tx, workspaceId);
    if (!workspace) return;
    for (const event of events) {
      if (!event.booking_id) continue;
      const place = await bookingPlace(tx, workspaceId, event.booking_id);
      // A rental's freed time (no staffer, docs/resources.md "Rentals") is not offered: the
      // waitlist offers a staffer's time, and joining it for a rental is refused.
      if (!place || place.stafferId === null) continue;
      let start = place.start.getTime();
      if (event.type === 'booking-rescheduled') {
        const before = await startBeforeLastReschedule(tx, workspaceId, event.booking_id);
        if (!before) continue;
        start = Date.parse(before);
      }
      await offerFreedTime(tx, workspace, now, { ...place, stafferId: place.stafferId, start });
    }
  },
};

/**
 * An offer's email and text message, from its `waitlist-offer-created` event (offer-messages.service.ts).
 * Like a booking's messages, a fault must not hold up the webhooks.
 */
export const waitlistMessageHandler: OutboxHandler = {
  name: 'waitlist_messages',
  types: ['waitlist-offer-created'],
  onFault: 'skip',
  handle: (tx, { workspaceId, events }) => queueOfferMessages(tx, workspaceId, events),
};

/**
 * "New hours": a staffer's hours at a location replaced (`schedule-updated`) may open times; the
 * people waiting there for a service the staffer gives are offered the earliest that suits them
 * (offerOpenedTimes), in the transaction that dispatches the event. A fault is skipped, as for a
 * freed time: the waitlist must not hold up the webhooks.
 */
export const waitlistHoursHandler: OutboxHandler = {
  name: 'waitlist_hours',
  types: ['schedule-updated'],
  onFault: 'skip',
  handle: async (tx, { workspaceId, events, now }) => {
    const workspace = await findWorkspaceById(tx, workspaceId);
    if (!workspace) return;
    // One look per staffer and location, however often its hours changed in this batch.
    const places = new Map<string, { locationId: string; stafferId: string }>();
    for (const event of events) {
      const schedule = (
        event.payload.data as { schedule?: { staffer_uuid?: unknown; location_uuid?: unknown } }
      )?.schedule;
      if (typeof schedule?.staffer_uuid !== 'string' || typeof schedule.location_uuid !== 'string') continue;
      places.set(`${schedule.staffer_uuid}|${schedule.location_uuid}`, {
        stafferId: schedule.staffer_uuid,
        locationId: schedule.location_uuid,
      });
    }
    for (const place of places.values()) await offerOpenedTimes(tx, workspace, now, place);
  },
};
