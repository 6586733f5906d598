import { upsertCustomer } from '../customers/customers.repository.js';
import { normalizePhone } from '../customers/phone.rules.js';
import {
  type FieldErrors,
  type FieldIssue,
  invalidField,
  issuesOf,
  NOT_A_CHOICE,
  notFound,
  ruleIssue,
  validationFailed,
} from '../errors.js';
import { findLiveLocation } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { isUuid } from '../platform/uuid.js';
import { loadOfferedServices } from '../slots/slots.repository.js';
import type { RequestContext } from '../workspaces/request-context.js';
import { updateWorkspace, type WorkspaceRow } from '../workspaces/workspaces.repository.js';
import {
  closeOpenOffers,
  type EntryView,
  findEntry,
  insertEntry,
  listEntries,
  listOffers,
  lockEntry,
  namesForPanel,
  type OfferRow,
  setEntryState,
  stafferGives,
} from './waitlist.repository.js';
import { checkWindows, waitlistSettingsOf } from './waitlist.rules.js';

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
  const issues: Record<string, FieldIssue> = { ...issuesOf(errors) };
  if (!phone) {
    allErrors.customer_phone = ['The customer phone must be a valid phone number.'];
    issues.customer_phone = { kind: 'invalid_phone' };
  }
  const email = input.customer_email?.trim() ?? '';
  if (email !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    allErrors.customer_email = ['The customer email must be a valid email address.'];
    issues.customer_email = { kind: 'invalid_email' };
  }
  if (Object.keys(allErrors).length > 0) throw validationFailed(allErrors, issues);

  if (!isUuid(input.location_uuid))
    throw invalidField('location_uuid', 'The selected location is invalid.', NOT_A_CHOICE);
  if (!isUuid(input.service_uuid))
    throw invalidField(
      'service_uuid',
      'The selected service is not offered at this location.',
      ruleIssue('service_not_offered'),
    );
  if (input.staffer_uuid != null && !isUuid(input.staffer_uuid))
    throw invalidField(
      'staffer_uuid',
      'The selected staffer does not provide this service at this location.',
      ruleIssue('staffer_not_offering'),
    );

  return ctx.uow.run(workspace.id, async (tx) => {
    const location = await findLiveLocation(tx, workspace.id, input.location_uuid);
    if (!location) throw invalidField('location_uuid', 'The selected location is invalid.', NOT_A_CHOICE);
    const offered = await loadOfferedServices(tx, workspace.id, location.id, [input.service_uuid]);
    if (!offered.has(input.service_uuid))
      throw invalidField(
        'service_uuid',
        'The selected service is not offered at this location.',
        ruleIssue('service_not_offered'),
      );
    // The waitlist offers a staffer's freed time; a rental's (docs/resources.md "Rentals") is not.
    if (offered.get(input.service_uuid)!.staffer_needed === false)
      throw invalidField(
        'service_uuid',
        'The waitlist does not take a service that needs no staffer.',
        ruleIssue('waitlist_no_rentals'),
      );
    const stafferId = input.staffer_uuid ?? null;
    if (
      stafferId !== null &&
      !(await stafferGives(tx, workspace.id, stafferId, location.id, input.service_uuid))
    )
      throw invalidField(
        'staffer_uuid',
        'The selected staffer does not provide this service at this location.',
        ruleIssue('staffer_not_offering'),
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

export interface WaitlistSettingsView {
  offer_mode: 'one' | 'all';
  hold_minutes: number;
  auto_fill_group_seats: boolean;
}

/** The workspace's waitlist settings, as stored (defaults where unset). */
export function waitlistSettings(workspace: WorkspaceRow): WaitlistSettingsView {
  const settings = waitlistSettingsOf(workspace.waitlist_settings);
  return {
    offer_mode: settings.offerMode,
    hold_minutes: settings.holdMinutes,
    auto_fill_group_seats: settings.autoFillGroupSeats,
  };
}

/** Changes the settings given, keeping the others. */
export async function updateWaitlistSettings(
  ctx: WaitlistContext,
  body: {
    offer_mode?: 'one' | 'all' | undefined;
    hold_minutes?: number | undefined;
    auto_fill_group_seats?: boolean | undefined;
  },
): Promise<WaitlistSettingsView> {
  const { workspace } = ctx;
  const current = waitlistSettings(workspace);
  const next: WaitlistSettingsView = {
    offer_mode: body.offer_mode ?? current.offer_mode,
    hold_minutes: body.hold_minutes ?? current.hold_minutes,
    auto_fill_group_seats: body.auto_fill_group_seats ?? current.auto_fill_group_seats,
  };
  const row = await ctx.uow.run(workspace.id, (tx) =>
    updateWorkspace(tx, workspace.id, { waitlist_settings: JSON.stringify(next) }),
  );
  return waitlistSettings(row);
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
