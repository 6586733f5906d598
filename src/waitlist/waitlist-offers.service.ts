import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { combinedService } from '../bookings/booking-shape.rules.js';
import type { BookingView } from '../bookings/bookings.repository.js';
import { availabilityFor, type BookingContext, createBooking } from '../bookings/bookings.service.js';
import {
  AppError,
  conflict,
  invalidField,
  notFound,
  OfferGone,
  offerTimeTaken,
  SlotUnavailable,
} from '../errors.js';
import { findLiveLocation } from '../locations/locations.repository.js';
import { recordEvents } from '../outbox/outbox.repository.js';
import type { Db } from '../platform/db/client.js';
import type { Tx, UnitOfWork } from '../platform/db/unit-of-work.js';
import { lockWorkspace } from '../platform/db/workspace-locks.repository.js';
import { parseInstant } from '../platform/time/instant.js';
import { toUtcIso } from '../platform/time/zone.js';
import { checkBookable } from '../slots/engine/compute-slots.js';
import { loadOfferedServices } from '../slots/slots.repository.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { offerIdOfToken, offerToken, tokenHash } from './offer-link.js';
import { presentOffer } from './waitlist.presenter.js';
import {
  claimOpenOffer,
  closeOpenOffers,
  findEntry,
  findOffer,
  hasOpenOfferOf,
  insertOffer,
  lockEntry,
  type OfferRow,
  offerDetails,
  openAutoOffers,
  setEntryState,
  setOfferBooking,
  waitingWithoutOfferOf,
} from './waitlist.repository.js';
import { fillsAutomatically, heldUntil, nextInLine, suits, waitlistSettingsOf } from './waitlist.rules.js';
import type { WaitlistContext } from './waitlist.service.js';

/**
 * The waitlist's offers (docs/waitlist.md): a freed time offered to who is next in line, an
 * offer made by hand, the claim through the normal create, and the expiry of offers whose hold
 * ended. The entries themselves (join, leave, the line) are waitlist.service.ts.
 */

/** A time that became free (or that staff picked), to offer from the waitlist. */
export interface FreedTime {
  locationId: string;
  serviceId: string;
  stafferId: string;
  start: number;
}

/**
 * Offers a freed time to who is next in line for it, in `tx` (the dispatch's, or a unit of
 * work's): only when the time is really free now (the slot engine's verdict, as a create would
 * get it), and not while an open offer of it holds it for someone. Each offer is recorded with
 * its `waitlist-offer-created` event, which its email, text and webhooks follow.
 */
export async function offerFreedTime(
  tx: Tx,
  workspace: WorkspaceRow,
  now: number,
  time: FreedTime,
): Promise<OfferRow[]> {
  const start = new Date(time.start);
  if (time.start <= now) return [];
  // Offers of one workspace take turns (the dispatch, the expiry round, staff by hand), so one
  // time is never held for two people in the "one at a time" mode.
  await lockWorkspace(tx, workspace.id, 'waitlist');
  if (await hasOpenOfferOf(tx, workspace.id, { serviceId: time.serviceId, stafferId: time.stafferId, start }))
    return [];
  const location = await findLiveLocation(tx, workspace.id, time.locationId);
  if (!location) return [];
  const candidates = (
    await waitingWithoutOfferOf(tx, workspace.id, {
      locationId: location.id,
      serviceId: time.serviceId,
      start,
    })
  ).filter((entry) =>
    suits(
      { anyTime: entry.any_time, windows: entry.windows, stafferId: entry.staffer_id },
      time.start,
      time.stafferId,
      location.timezone,
    ),
  );
  if (candidates.length === 0) return [];
  const service = await freeService(tx, workspace, now, time);
  if (!service) return [];
  const settings = waitlistSettingsOf(workspace.waitlist_settings);
  // A group class's seat, with the setting on: booked for the first in line by the periodic
  // round (claimAutoOffers), through the same claim as a link's.
  const auto = fillsAutomatically(settings, service.capacity);
  const chosen = nextInLine(
    candidates.map((entry) => ({ ...entry, joinedAt: entry.joined_at.getTime() })),
    auto ? 'one' : settings.offerMode,
  );
  const offers: OfferRow[] = [];
  for (const entry of chosen) {
    offers.push(
      await makeOffer(
        tx,
        workspace,
        now,
        entry.id,
        time,
        heldUntil(now, settings.holdMinutes),
        auto ? 'auto' : 'freed',
      ),
    );
  }
  return offers;
}

/**
 * The service when `time` could be booked now (the engine's verdict, the one a create would
 * get), else undefined.
 */
async function freeService(tx: Db, workspace: WorkspaceRow, now: number, time: FreedTime) {
  const location = await findLiveLocation(tx, workspace.id, time.locationId);
  if (!location) return undefined;
  const offered = await loadOfferedServices(tx, workspace.id, location.id, [time.serviceId]);
  const service = offered.get(time.serviceId);
  if (!service) return undefined;
  const availability = await availabilityFor(
    tx,
    { workspace, now },
    location,
    [service],
    combinedService([service]),
    time.start,
    time.stafferId,
  );
  return checkBookable(availability, time.start, time.stafferId).ok ? service : undefined;
}

async function makeOffer(
  tx: Tx,
  workspace: WorkspaceRow,
  now: number,
  entryId: string,
  time: FreedTime,
  until: number,
  madeBy: 'freed' | 'staff' | 'auto',
): Promise<OfferRow> {
  const id = randomUUID();
  const hash = tokenHash(offerToken(workspace, id));
  const offer = await insertOffer(tx, {
    id,
    workspaceId: workspace.id,
    entryId,
    locationId: time.locationId,
    serviceId: time.serviceId,
    stafferId: time.stafferId,
    start: new Date(time.start),
    heldUntil: new Date(until),
    tokenHash: hash,
    madeBy,
    at: new Date(now),
  });
  await setEntryState(tx, workspace.id, [entryId], 'offered', new Date(now));
  await recordOfferEvent(tx, workspace, now, offer, 'waitlist-offer-created');
  return offer;
}

function recordOfferEvent(
  tx: Tx,
  workspace: WorkspaceRow,
  now: number,
  offer: OfferRow,
  type: 'waitlist-offer-created' | 'waitlist-offer-claimed' | 'waitlist-offer-expired',
): Promise<void> {
  return recordEvents(tx, {
    workspaceId: workspace.id,
    workspaceSlug: workspace.slug,
    at: new Date(now),
    subject: { kind: 'waitlist_offer', id: offer.id, data: presentOffer(offer) },
    events: [{ type, sequence: offer.event_sequence }],
    change: type.replace('waitlist-offer-', 'offer-'),
  });
}

/**
 * Staff offer a time to one person by hand (the panel's "Offer a time", POST
 * /waitlist/{uuid}/offers): any time the engine says is free, with the entry's staffer or the
 * one given, or the first free one. An open offer of the entry is withdrawn for the new one.
 */
export async function offerTimeByHand(
  ctx: WaitlistContext,
  entryId: string,
  input:
    | { reserved_on: string; staffer_uuid?: string | null | undefined }
    | { date: string; time: string; staffer_uuid?: string | null | undefined },
): Promise<OfferRow> {
  const { workspace } = ctx;
  const instant = 'reserved_on' in input ? parseInstant(input.reserved_on) : undefined;
  if ('reserved_on' in input && instant === undefined)
    throw invalidField('reserved_on', 'The reserved on must be a valid date.');
  return ctx.uow.run(workspace.id, async (tx) => {
    await lockWorkspace(tx, workspace.id, 'waitlist');
    const entry = await lockEntry(tx, workspace.id, entryId);
    if (!entry) throw notFound('Waitlist entry');
    if (entry.state !== 'waiting' && entry.state !== 'offered')
      throw conflict('entry_closed', 'This person is no longer waiting.');
    const location = await findLiveLocation(tx, workspace.id, entry.location_id);
    const offered = location
      ? await loadOfferedServices(tx, workspace.id, location.id, [entry.service_id])
      : new Map();
    const service = offered.get(entry.service_id);
    if (!location || !service) throw conflict('entry_closed', 'The service is no longer offered here.');
    // The panel's form gives the location's wall time; the API an instant.
    const start = instant ?? wallTimeAt('date' in input ? input : { date: '', time: '' }, location.timezone);
    const asked = input.staffer_uuid ?? entry.staffer_id ?? undefined;
    const availability = await availabilityFor(
      tx,
      ctx,
      location,
      [service],
      combinedService([service]),
      start,
      asked,
    );
    const verdict = checkBookable(availability, start, asked);
    if (!verdict.ok)
      throw new SlotUnavailable(verdict.reason === 'no_free_staffer' ? 'taken' : verdict.reason);
    const stafferId = asked ?? verdict.staffers[0]!.stafferId;
    const time = { locationId: location.id, serviceId: service.id, stafferId, start };
    if (await hasOpenOfferOf(tx, workspace.id, { serviceId: service.id, stafferId, start: new Date(start) }))
      throw conflict('time_offered', 'This time is already offered to someone on the waiting list.');
    const now = new Date(ctx.now);
    await closeOpenOffers(tx, workspace.id, { entryId }, 'withdrawn', now);
    const settings = waitlistSettingsOf(workspace.waitlist_settings);
    return makeOffer(
      tx,
      workspace,
      ctx.now,
      entryId,
      time,
      heldUntil(ctx.now, settings.holdMinutes),
      'staff',
    );
  });
}

/**
 * Claims an offer: in one transaction, the offer turns from open to claimed (a guarded update: of
 * two claims at once, the second finds it claimed, OfferGone) and the booking is made through
 * the normal create, the exclusion constraint deciding. When the time was taken meanwhile (a
 * direct booking during the hold), nothing of the claim stays: the offer is withdrawn, the person
 * waits on, and the answer is `offer_time_taken`.
 */
export async function claimOffer(ctx: BookingContext, token: string): Promise<BookingView> {
  const id = offerIdOfToken(ctx.workspace, token);
  if (!id) throw notFound('Offer');
  return claimOfferWith(ctx, id, tokenHash(token), 'link');
}

/**
 * The claim of offer `id` whose stored token hash is `hash`: by its link, or by the periodic
 * round for an offer made to be claimed at once (made_by 'auto'), which no link may claim.
 */
async function claimOfferWith(
  ctx: BookingContext,
  id: string,
  hash: string,
  by: 'link' | 'round',
): Promise<BookingView> {
  const { workspace } = ctx;
  const now = new Date(ctx.now);
  try {
    return await ctx.uow.runJoined(workspace.id, async (tx, unit) => {
      const offer = await claimOpenOffer(
        tx,
        workspace.id,
        id,
        hash,
        now,
        by === 'round' ? 'auto' : 'offered',
      );
      if (!offer) {
        const seen = await findOffer(tx, workspace.id, id);
        if (!seen) throw notFound('Offer');
        throw new OfferGone(seen.state === 'open' ? 'expired' : seen.state);
      }
      const entry = (await findEntry(tx, workspace.id, offer.entry_id))!;
      const booking = await createBooking(
        { ...ctx, db: tx, uow: unit },
        {
          reserved_on: toUtcIso(offer.starts_at.getTime()),
          location_uuid: offer.location_id,
          service_uuid: offer.service_id,
          staffer_uuid: offer.staffer_id,
          customer_phone: entry.customer_phone,
          ...(entry.customer_first_name ? { customer_first_name: entry.customer_first_name } : {}),
          ...(entry.customer_last_name ? { customer_last_name: entry.customer_last_name } : {}),
          ...(entry.customer_email ? { customer_email: entry.customer_email } : {}),
          source: 'waitlist',
          ...(entry.language ? { language: entry.language } : {}),
        },
      );
      await setOfferBooking(tx, workspace.id, offer.id, booking.id);
      await setEntryState(tx, workspace.id, [entry.id], 'booked', now, booking.id);
      // In the "all at once" mode the others' offers of this time are gone with it.
      const others = await closeOpenOffers(tx, workspace.id, { sameTimeAs: offer }, 'withdrawn', now);
      await setEntryState(
        tx,
        workspace.id,
        others.map((o) => o.entry_id),
        'waiting',
        now,
      );
      await recordOfferEvent(
        tx,
        workspace,
        ctx.now,
        { ...offer, booking_id: booking.id },
        'waitlist-offer-claimed',
      );
      return booking;
    });
  } catch (error) {
    // Nothing of the claim stays (the create's refusal rolled its transaction back, and with it
    // the caller's idempotency key): the caller withdraws the offer afterwards, in a unit of
    // work of its own (withdrawTakenOffer), and answers offer_time_taken.
    if (error instanceof SlotUnavailable) throw offerTimeTaken();
    throw error;
  }
}

/**
 * After a claim found its time taken (a direct booking during the hold): the offer is withdrawn
 * and its person waits on. Run outside the claim's transaction, which rolled back.
 */
export async function withdrawTakenOffer(ctx: WaitlistContext, token: string): Promise<void> {
  const id = offerIdOfToken(ctx.workspace, token);
  if (!id) return;
  await withdrawOffer(ctx, id);
}

async function withdrawOffer(ctx: { workspace: WorkspaceRow; now: number; uow: UnitOfWork }, id: string) {
  const { workspace } = ctx;
  const now = new Date(ctx.now);
  await ctx.uow.run(workspace.id, async (tx) => {
    const withdrawn = await closeOpenOffers(tx, workspace.id, { ids: [id] }, 'withdrawn', now);
    await setEntryState(
      tx,
      workspace.id,
      withdrawn.map((o) => o.entry_id),
      'waiting',
      now,
    );
  });
}

/**
 * The periodic round's work in one workspace: offers whose hold ended unclaimed expire (their
 * people wait on), and each such time is offered to who is next in line, in one transaction.
 */
export async function expireOffers(
  deps: { uow: UnitOfWork },
  workspace: WorkspaceRow,
  now: number,
): Promise<{ expired: number; offered: number }> {
  return deps.uow.run(workspace.id, async (tx) => {
    const expired = await closeOpenOffers(
      tx,
      workspace.id,
      { dueAt: new Date(now) },
      'expired',
      new Date(now),
    );
    await setEntryState(
      tx,
      workspace.id,
      expired.map((o) => o.entry_id),
      'waiting',
      new Date(now),
    );
    for (const offer of expired) await recordOfferEvent(tx, workspace, now, offer, 'waitlist-offer-expired');
    const times = new Map<string, FreedTime>();
    for (const offer of expired) {
      const time = {
        locationId: offer.location_id,
        serviceId: offer.service_id,
        stafferId: offer.staffer_id!,
        start: offer.starts_at.getTime(),
      };
      times.set(`${time.serviceId}|${time.stafferId}|${time.start}`, time);
    }
    let offered = 0;
    for (const time of times.values()) offered += (await offerFreedTime(tx, workspace, now, time)).length;
    return { expired: expired.length, offered };
  });
}

/** At most this many automatic claims per workspace and round: each claimed seat may free the next offer. */
const AUTO_CLAIMS_PER_ROUND = 50;

/**
 * The periodic round's automatic claims in one workspace (auto_fill_group_seats): each open
 * offer marked to be claimed automatically is claimed at once through the same claim as a link's
 * (the guarded update, then the normal create in one unit of work), so a race with a direct
 * booking ends as a claim's does. When the seat was taken meanwhile the offer is withdrawn and the
 * person waits on; when a claim succeeded, the same time is offered on (a class may have freed
 * more than one seat), and that offer is claimed in the same round.
 */
export async function claimAutoOffers(
  deps: { db: Db; uow: UnitOfWork; linkBase: string },
  workspace: WorkspaceRow,
  now: number,
): Promise<{ booked: number; taken: number }> {
  const ctx: BookingContext = {
    workspace,
    actor: { type: 'system', id: null },
    now,
    linkBase: deps.linkBase,
    db: deps.db,
    uow: deps.uow,
  };
  let booked = 0;
  let taken = 0;
  for (let round = 0; round < AUTO_CLAIMS_PER_ROUND; round++) {
    const [offer] = await openAutoOffers(deps.db, workspace.id, new Date(now), 1);
    if (!offer) break;
    try {
      await claimOfferWith(ctx, offer.id, offer.token_hash, 'round');
      booked++;
      const time = {
        locationId: offer.location_id,
        serviceId: offer.service_id,
        stafferId: offer.staffer_id!,
        start: offer.starts_at.getTime(),
      };
      await deps.uow.run(workspace.id, (tx) => offerFreedTime(tx, workspace, now, time));
    } catch (error) {
      if (error instanceof OfferGone) continue;
      // The seat was taken meanwhile, or the create refused the booking for another reason of
      // its own (a 4xx): the offer is withdrawn and the person waits on, as after a link's claim.
      if (!isOfferTimeTaken(error) && !(error instanceof AppError && error.statusCode < 500)) throw error;
      taken++;
      await withdrawOffer(ctx, offer.id);
    }
  }
  return { booked, taken };
}

function isOfferTimeTaken(error: unknown): boolean {
  return error instanceof AppError && error.code === 'offer_time_taken';
}

/** What the claim page shows: the offer with its service, staffer and place, or undefined for a bad token. */
export async function offerForPage(ctx: { workspace: WorkspaceRow; db: Db }, token: string) {
  const id = offerIdOfToken(ctx.workspace, token);
  return id ? offerDetails(ctx.db, ctx.workspace.id, id) : undefined;
}

/** A date and time of the location's wall clock as an instant; 422 naming the field when not one. */
function wallTimeAt(input: { date: string; time: string }, zone: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.date))
    throw invalidField('date', 'The date must be a date (YYYY-MM-DD).');
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(input.time)) throw invalidField('time', 'The time must be HH:MM.');
  const local = DateTime.fromISO(`${input.date}T${input.time}`, { zone });
  if (!local.isValid) throw invalidField('date', 'The date must be a date (YYYY-MM-DD).');
  return local.toMillis();
}
