import { toUtcIso } from '../platform/time/zone.js';
import type { EntryView, OfferRow } from './waitlist.repository.js';

/** A waitlist entry as the API shows it (docs/waitlist.md). */
export function presentEntry(entry: EntryView) {
  return {
    uuid: entry.id,
    location_uuid: entry.location_id,
    service_uuid: entry.service_id,
    staffer_uuid: entry.staffer_id,
    customer: {
      uuid: entry.customer_id,
      phone: entry.customer_phone,
      first_name: entry.customer_first_name,
      last_name: entry.customer_last_name,
      email: entry.customer_email,
    },
    windows: entry.windows,
    any_time: entry.any_time,
    state: entry.state,
    source: entry.source,
    booking_uuid: entry.booking_id,
    joined_at: toUtcIso(entry.joined_at.getTime()),
  };
}

/** A waitlist offer as the API and the webhooks show it. */
export function presentOffer(offer: OfferRow) {
  return {
    uuid: offer.id,
    entry_uuid: offer.entry_id,
    location_uuid: offer.location_id,
    service_uuid: offer.service_id,
    staffer_uuid: offer.staffer_id,
    start_time: toUtcIso(offer.starts_at.getTime()),
    held_until: toUtcIso(offer.held_until.getTime()),
    state: offer.state,
    made_by: offer.made_by,
    booking_uuid: offer.booking_id,
    created_at: toUtcIso(offer.created_at.getTime()),
  };
}
