import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { combinedService } from '../bookings/booking-shape.rules.js';
import type { BookingView } from '../bookings/bookings.repository.js';
import { availabilityFor, type BookingContext, createBooking } from '../bookings/bookings.service.js';
import { upsertCustomer } from '../customers/customers.repository.js';
import { normalizePhone } from '../customers/phone.rules.js';
import {
  conflict,
  type FieldErrors,
  invalidField,
  notFound,
  OfferGone,
  offerTimeTaken,
  SlotUnavailable,
  validationFailed,
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
import type { RequestContext } from '../workspaces/request-context.js';
import { updateWorkspace, type WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { offerIdOfToken, offerToken, tokenHash } from './offer-link.js';
import { presentOffer } from './waitlist.presenter.js';
import {
  claimOpenOffer,
  closeOpenOffers,
  type EntryView,
  findEntry,
  findOffer,
  hasOpenOfferOf,
  insertEntry,
  insertOffer,
  listEntries,
  listOffers,
  lockEntry,
  namesForPanel,
  type OfferRow,
  offerDetails,
  setEntryState,
  setOfferBooking,
  stafferGives,
  waitingWithoutOfferOf,
} from './waitlist.repository.js';
import { checkWindows, heldUntil, nextInLine, suits, waitlistSettingsOf } from './waitlist.rules.js';

/**
 * The waitlist (docs/waitlist.md): customers join for a service; a freed time is offered to the
 * first in line (or all, a setting), held for them for a while; a claim books it through the
 * normal create. Offers are made in the transaction of what freed the time (the outbox
 * dispatch, src/waitlist/outbox-handler.ts), by hand by staff, or by the periodic round when an
 * earlier offer of the time expired.
 */

export interface WaitlistContext extends RequestContext {
  db: Db;
  uow: UnitOfWork;
}

export interface JoinInput {
  location_uuid: string;
  service_uuid: string;
  staffer_uuid?: string | null | undefined;
  customer_phone: string;
  customer_first_name?: string | undefined;
  customer_last_name?: string | undefined;
  customer_email?: string | undefined;
  windows?: { date?: unknown; from?: unknown; to?: unknown }[] | undefined;
  any_time?: boolean | undefined;
  /** The booking page's language, for the offer's email and text. */
  language?: string | undefined;
  source?: string | undefined;
}

/** Joins the waitlist: the customer (by phone, as a booking does) waits in line from now. */
export async function joinWaitlist(
  ctx: WaitlistContext,
  input: JoinInput,
  options: { defaultCountry?: Parameters<typeof normalizePhone>[1] } = {},
): Promise<EntryView> {
  const { workspace } = ctx;
  const anyTime = input.any_time === true;
  const { windows, errors } = checkWindows(input.windows, anyTime);
  const phone = normalizePhone(input.customer_phone ?? '', options.defaultCountry);
  const allErrors: FieldErrors = { ...errors };
  if (!phone) allErrors.customer_phone = ['The customer phone must be a valid phone number.'];
  const email = input.customer_email?.trim() ?? '';
  if (email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    allErrors.customer_email = ['The customer email must be a valid email address.'];
  if (Object.keys(allErrors).length > 0) throw validationFailed(allErrors);

  return ctx.uow.run(workspace.id, async (tx) => {
    const location = await findLiveLocation(tx, workspace.id, input.location_uuid);
    if (!location) throw invalidField('location_uuid', 'The selected location is invalid.');
    const offered = await loadOfferedServices(tx, workspace.id, location.id, [input.service_uuid]);
    if (!offered.has(input.service_uuid))
      throw invalidField('service_uuid', 'The selected service is not offered at this location.');
    const stafferId = input.staffer_uuid ?? null;
    if (
      stafferId !== null &&
      !(await stafferGives(tx, workspace.id, stafferId, location.id, input.service_uuid))
    )
      throw invalidField(
        'staffer_uuid',
        'The selected staffer does not provide this service at this location.',
      );
    const customerId = await upsertCustomer(tx, workspace.id, {
      phone: phone!,
      first_name: input.customer_first_name?.trim(),
      last_name: input.customer_last_name?.trim(),
      email: email === '' ? undefined : email,
    });
    const id = await insertEntry(tx, {
      workspaceId: workspace.id,
      customerId,
      locationId: location.id,
      serviceId: input.service_uuid,
      stafferId,
      windows,
      anyTime,
      language: input.language ?? null,
      source: input.source?.trim() || 'api',
      joinedAt: new Date(ctx.now),
    });
    return (await findEntry(tx, workspace.id, id))!;
  });
}

export function listWaitlist(
  ctx: { workspace: WorkspaceRow; db: Db },
  filter: Parameters<typeof listEntries>[2],
  page?: { limit: number; offset: number },
): Promise<EntryView[]> {
  return listEntries(ctx.db, ctx.workspace.id, filter, page);
}

export async function requireEntry(ctx: { workspace: WorkspaceRow; db: Db }, id: string): Promise<EntryView> {
  const entry = await findEntry(ctx.db, ctx.workspace.id, id);
  if (!entry) throw notFound('Waitlist entry');
  return entry;
}

export function listWaitlistOffers(
  ctx: { workspace: WorkspaceRow; db: Db },
  filter: Parameters<typeof listOffers>[2],
): Promise<OfferRow[]> {
  return listOffers(ctx.db, ctx.workspace.id, filter);
}

/** Leaves the line: the entry is kept as `left`, its open offer withdrawn. A second leave changes nothing. */
export async function leaveWaitlist(ctx: WaitlistContext, entryId: string): Promise<EntryView> {
  const { workspace } = ctx;
  return ctx.uow.run(workspace.id, async (tx) => {
    const entry = await lockEntry(tx, workspace.id, entryId);
    if (!entry) throw notFound('Waitlist entry');
    if (entry.state === 'waiting' || entry.state === 'offered') {
      const now = new Date(ctx.now);
      await closeOpenOffers(tx, workspace.id, { entryId }, 'withdrawn', now);
      await setEntryState(tx, workspace.id, [entryId], 'left', now);
    }
    return (await findEntry(tx, workspace.id, entryId))!;
  });
}

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
  if (!(await isFree(tx, workspace, now, time))) return [];
  const settings = waitlistSettingsOf(workspace.waitlist_settings);
  const chosen = nextInLine(
    candidates.map((entry) => ({ ...entry, joinedAt: entry.joined_at.getTime() })),
    settings.offerMode,
  );
  const offers: OfferRow[] = [];
  for (const entry of chosen) {
    offers.push(
      await makeOffer(tx, workspace, now, entry.id, time, heldUntil(now, settings.holdMinutes), 'freed'),
    );
  }
  return offers;
}

/** Whether `time` could be booked now (the engine's verdict, the one a create would get). */
async function isFree(tx: Db, workspace: WorkspaceRow, now: number, time: FreedTime): Promise<boolean> {
  const location = await findLiveLocation(tx, workspace.id, time.locationId);
  if (!location) return false;
  const offered = await loadOfferedServices(tx, workspace.id, location.id, [time.serviceId]);
  const service = offered.get(time.serviceId);
  if (!service) return false;
  const availability = await availabilityFor(
    tx,
    { workspace, now },
    location,
    [service],
    combinedService([service]),
    time.start,
    time.stafferId,
  );
  return checkBookable(availability, time.start, time.stafferId).ok;
}

async function makeOffer(
  tx: Tx,
  workspace: WorkspaceRow,
  now: number,
  entryId: string,
  time: FreedTime,
  until: number,
  madeBy: 'freed' | 'staff',
): Promise<OfferRow> {
  const id = randomUUID();
  const offer = await insertOffer(tx, {
    id,
    workspaceId: workspace.id,
    entryId,
    locationId: time.locationId,
    serviceId: time.serviceId,
    stafferId: time.stafferId,
    start: new Date(time.start),
    heldUntil: new Date(until),
    tokenHash: tokenHash(offerToken(workspace, id)),
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

/** What the claim page shows: the offer, its entry, and whether it can still be claimed. */
export async function offerOfToken(
  ctx: { workspace: WorkspaceRow; db: Db },
  token: string,
): Promise<{ offer: OfferRow; entry: EntryView }> {
  const id = offerIdOfToken(ctx.workspace, token);
  const offer = id ? await findOffer(ctx.db, ctx.workspace.id, id) : undefined;
  if (!offer) throw notFound('Offer');
  const entry = (await findEntry(ctx.db, ctx.workspace.id, offer.entry_id))!;
  return { offer, entry };
}

/**
 * Claims an offer: in one transaction, the offer turns from open to claimed (a guarded update: of
 * two claims at once, the second finds it claimed, OfferGone) and the booking is made through
 * the normal create, the exclusion constraint deciding. When the time was taken meanwhile (a
 * direct booking during the hold), nothing of the claim stays: the offer is withdrawn, the person
 * waits on, and the answer is `offer_time_taken`.
 */
export async function claimOffer(ctx: BookingContext, token: string): Promise<BookingView> {
  const { workspace } = ctx;
  const id = offerIdOfToken(workspace, token);
  if (!id) throw notFound('Offer');
  const hash = tokenHash(token);
  const now = new Date(ctx.now);
  try {
    return await ctx.uow.runJoined(workspace.id, async (tx, unit) => {
      const offer = await claimOpenOffer(tx, workspace.id, id, hash, now);
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
  const { workspace } = ctx;
  const id = offerIdOfToken(workspace, token);
  if (!id) return;
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

/** The workspace's waitlist settings, as stored (defaults where unset). */
export function waitlistSettings(workspace: WorkspaceRow) {
  const settings = waitlistSettingsOf(workspace.waitlist_settings);
  return { offer_mode: settings.offerMode, hold_minutes: settings.holdMinutes };
}

/** Changes the settings given, keeping the others. */
export async function updateWaitlistSettings(
  ctx: WaitlistContext,
  body: { offer_mode?: 'one' | 'all' | undefined; hold_minutes?: number | undefined },
): Promise<{ offer_mode: 'one' | 'all'; hold_minutes: number }> {
  const { workspace } = ctx;
  const current = waitlistSettings(workspace);
  const next = {
    offer_mode: body.offer_mode ?? current.offer_mode,
    hold_minutes: body.hold_minutes ?? current.hold_minutes,
  };
  const row = await ctx.uow.run(workspace.id, (tx) =>
    updateWorkspace(tx, workspace.id, { waitlist_settings: JSON.stringify(next) }),
  );
  return waitlistSettings(row);
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

/**
 * The panel's waitlist page: the line (filtered by service and staffer), the open offer of each
 * person, and the names of services and staffers for the filters and the rows.
 */
export async function waitlistPanelView(
  ctx: { workspace: WorkspaceRow; db: Db },
  filter: { serviceId?: string | undefined; stafferId?: string | undefined },
) {
  const [entries, open, names] = await Promise.all([
    listEntries(ctx.db, ctx.workspace.id, filter),
    listOffers(ctx.db, ctx.workspace.id, { state: 'open' }, 1000),
    namesForPanel(ctx.db, ctx.workspace.id),
  ]);
  const offerOf = new Map(open.map((offer) => [offer.entry_id, offer]));
  return { entries, offerOf, ...names };
}
