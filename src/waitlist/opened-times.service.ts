import { combinedService, requirementsOf } from '../bookings/booking-shape.rules.js';
import { findLiveLocation } from '../locations/locations.repository.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { lockWorkspace } from '../platform/db/workspace-locks.repository.js';
import { loadResourceNeeds } from '../resources/resource-occupancies.repository.js';
import { makeContext } from '../slots/engine/availability.js';
import { type AvailabilityInput, evaluateAvailability } from '../slots/engine/compute-slots.js';
import { loadOfferedServices, loadStafferInputs, type OfferedService } from '../slots/slots.repository.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import {
  type EntryRow,
  heldStartsOf,
  type OfferRow,
  offeredStartsOf,
  waitingForStaffer,
} from './waitlist.repository.js';
import { openedStartsFor, searchSpan, type WantedTimes } from './waitlist.rules.js';
import { offerFreedTime } from './waitlist-offers.service.js';

/** At most this many people in line are looked at per change of hours: one dispatch stays short. */
export const OPENED_ENTRIES_PER_CHANGE = 50;
/** At most this many times are tried per person (each try asks the engine again, as a create would). */
const TRIES_PER_ENTRY = 5;

/**
 * "New hours": a staffer's hours at a location changed, so times may have opened with them. For
 * each person still waiting there (no open offer) for a service the staffer gives, oldest first
 * and at most OPENED_ENTRIES_PER_CHANGE, the earliest time that suits them and that the slot
 * engine says is free with this staffer is offered through offerFreedTime: the same lock, the
 * same "no open offer holds it", the same offer mode (one: the first in line whom it suits; all:
 * everyone it suits), the same event and messages. Runs in `tx` (the dispatch's).
 */
export async function offerOpenedTimes(
  tx: Tx,
  workspace: WorkspaceRow,
  now: number,
  place: { locationId: string; stafferId: string },
): Promise<OfferRow[]> {
  await lockWorkspace(tx, workspace.id, 'waitlist');
  const location = await findLiveLocation(tx, workspace.id, place.locationId);
  if (!location) return [];
  const entries = await waitingForStaffer(tx, workspace.id, place, OPENED_ENTRIES_PER_CHANGE);
  if (entries.length === 0) return [];
  const offeredBefore = await offeredStartsOf(
    tx,
    workspace.id,
    entries.map((entry) => entry.id),
  );
  const services = await loadOfferedServices(tx, workspace.id, location.id, [
    ...new Set(entries.map((entry) => entry.service_id)),
  ]);
  const freeByService = new Map<string, number[]>();
  const heldByService = new Map<string, Set<number>>();
  const served = new Set<string>();
  const offers: OfferRow[] = [];
  for (const entry of entries) {
    // An earlier entry's offer in the "all at once" mode may have reached this one already.
    if (served.has(entry.id)) continue;
    const service = services.get(entry.service_id);
    if (!service) continue;
    if (!freeByService.has(service.id)) {
      const wanting = entries.filter((e) => e.service_id === service.id);
      freeByService.set(service.id, await freeStarts(tx, workspace, now, location, service, place, wanting));
      heldByService.set(
        service.id,
        await heldStartsOf(tx, workspace.id, { serviceId: service.id, stafferId: place.stafferId }),
      );
    }
    const held = heldByService.get(service.id)!;
    const starts = openedStartsFor(
      freeByService.get(service.id)!,
      wantedOf(entry),
      place.stafferId,
      location.timezone,
      {
        held,
        offeredBefore: offeredBefore.get(entry.id) ?? new Set(),
      },
    ).slice(0, TRIES_PER_ENTRY);
    for (const start of starts) {
      const made = await offerFreedTime(tx, workspace, now, {
        locationId: location.id,
        serviceId: service.id,
        stafferId: place.stafferId,
        start,
      });
      for (const offer of made) {
        served.add(offer.entry_id);
        held.add(start);
      }
      offers.push(...made);
      if (served.has(entry.id)) break;
    }
  }
  return offers;
}

const wantedOf = (entry: EntryRow): WantedTimes => ({
  anyTime: entry.any_time,
  windows: entry.windows,
  stafferId: entry.staffer_id,
});

/**
 * The starts the slot engine finds free for the service with the staffer, over the span the
 * waiting entries look in (their wanted dates, or notice to horizon for "any time"), ascending.
 */
async function freeStarts(
  tx: Tx,
  workspace: WorkspaceRow,
  now: number,
  location: { id: string; timezone: string },
  service: OfferedService,
  place: { stafferId: string },
  entries: readonly EntryRow[],
): Promise<number[]> {
  const shape = combinedService([service]);
  const base: AvailabilityInput = {
    locationZone: location.timezone,
    service: shape,
    rules: {
      slotStepMinutes: workspace.slot_step_minutes,
      minNoticeMinutes: workspace.min_notice_minutes,
      horizonDays: workspace.horizon_days,
    },
    staffers: [],
    now,
  };
  const { earliest, latest } = makeContext(base);
  let lower = Number.POSITIVE_INFINITY;
  let upper = Number.NEGATIVE_INFINITY;
  for (const entry of entries) {
    const span = searchSpan(wantedOf(entry), location.timezone, earliest, latest);
    if (!span) continue;
    lower = Math.min(lower, span.lower);
    upper = Math.max(upper, span.upper);
  }
  if (lower > upper) return [];
  const to = upper + shape.durationMinutes * 60_000;
  const staffers = await loadStafferInputs(tx, {
    workspaceId: workspace.id,
    locationId: location.id,
    serviceIds: [service.id],
    stafferId: place.stafferId,
    from: lower,
    to,
  });
  const resources = await loadResourceNeeds(tx, {
    workspaceId: workspace.id,
    locationId: location.id,
    requirements: requirementsOf([service]),
    capacity: shape.capacity,
    from: lower,
    to,
  });
  const input = { ...base, staffers, ...(resources.length > 0 ? { resources } : {}) };
  return evaluateAvailability(input, lower, upper).starts;
}
