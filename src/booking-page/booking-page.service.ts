import { type CountryCode, isSupportedCountry } from 'libphonenumber-js';
import { cancelBooking, rescheduleBooking } from '../bookings/booking-changes.service.js';
import { type BookingView, findBookingView } from '../bookings/bookings.repository.js';
import { parseCreateBooking } from '../bookings/bookings.rules.js';
import type { BookingContext, CreateBookingInput } from '../bookings/bookings.service.js';
import { AppError, type InputIssue, InvalidInput } from '../errors.js';
import { findLiveLocation, type LocationRow, listLocations } from '../locations/locations.repository.js';
import { amountDue, type CancellationPolicy, paymentPolicyOf } from '../payments/payment-policy.rules.js';
import { checkoutOrigins, type PaymentConfig } from '../payments/payment-providers.service.js';
import {
  createBookingCollecting,
  hasPaymentProvider,
  settlementPreview,
} from '../payments/payments.service.js';
import type { Db } from '../platform/db/client.js';
import type { BookingFormField } from '../platform/db/schema.js';
import { addDays, localDateOf } from '../platform/time/zone.js';
import { isUuid } from '../platform/uuid.js';
import { createSeries, readSeries } from '../series/series.service.js';
import { listServicesAtLocation, type ServiceRecord } from '../services/services.repository.js';
import type { Slot } from '../slots/engine/types.js';
import type { OfferedService } from '../slots/slots.repository.js';
import { type EvaluationReuse, nextTimeSlots, slotsOfCheckedService } from '../slots/slots.service.js';
import { listStaffersAtLocation, type StafferRecord } from '../staffers/staffers.repository.js';
import { textSettingsOf } from '../text-messages/text-settings.rules.js';
import { BOOKING_FORM_FIELDS } from '../workspaces/workspace-settings.rules.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';

/** Everything the page lists fits one page of these (a business has tens, not thousands). */
const ALL = { page: 1, perPage: 100, offset: 0 };

export async function pageLocations(db: Db, workspace: WorkspaceRow): Promise<LocationRow[]> {
  return (await listLocations(db, workspace.id, ALL)).rows;
}

export async function pageLocation(db: Db, workspace: WorkspaceRow, id: string | undefined) {
  return id && isUuid(id) ? findLiveLocation(db, workspace.id, id) : undefined;
}

export interface ServiceGroup {
  category: string | null;
  services: ServiceRecord[];
}

/** The location's services grouped by category (in category order; uncategorised last). */
export async function pageServices(
  db: Db,
  workspace: WorkspaceRow,
  locationId: string,
): Promise<ServiceGroup[]> {
  const { rows } = await listServicesAtLocation(db, workspace.id, locationId, ALL);
  const groups = new Map<string, ServiceGroup & { order: number }>();
  for (const service of rows) {
    const key = service.category_name ?? '';
    let group = groups.get(key);
    if (!group) {
      group = {
        category: service.category_name,
        services: [],
        order: service.category_position ?? Number.MAX_SAFE_INTEGER,
      };
      groups.set(key, group);
    }
    group.services.push(service);
  }
  return [...groups.values()].sort((a, b) => a.order - b.order);
}

/** The live staffers who provide this service at this location. */
export async function pageStaffers(
  db: Db,
  workspace: WorkspaceRow,
  locationId: string,
  serviceId: string,
): Promise<StafferRecord[]> {
  const { rows } = await listStaffersAtLocation(db, workspace.id, locationId, ALL);
  return rows.filter((staffer) =>
    staffer.assignments.some((a) => a.locationId === locationId && a.serviceIds.includes(serviceId)),
  );
}

/**
 * The slots from `from` to `to`, in `zone`, by the API's slot engine and caches. The service and
 * staffer come from the page's catalog, which lists only what is offered there: no second check.
 */
export function pageSlots(
  db: Db,
  workspace: WorkspaceRow,
  location: LocationRow,
  args: { service: OfferedService; stafferId: string | undefined; zone: string; from: string; to: string },
  now: number,
  reuse?: EvaluationReuse,
) {
  return slotsOfCheckedService(
    db,
    workspace,
    location,
    args.service,
    { stafferId: args.stafferId, zone: args.zone, rangeStart: args.from, rangeEnd: args.to },
    now,
    reuse,
  );
}

/** The free slots nearest to `wanted` (a taken slot), in time order. */
export async function nearestFreeSlots(
  db: Db,
  workspace: WorkspaceRow,
  location: LocationRow,
  args: { serviceId: string; stafferId: string | undefined; zone: string; wanted: number },
  now: number,
  count = 4,
): Promise<Slot[]> {
  // From the day before the wanted one: the nearest times may lie on either side of it.
  const from = addDays(localDateOf(args.wanted, args.zone), -1);
  const answer = await nextTimeSlots(
    db,
    workspace,
    location,
    { service_uuid: args.serviceId, staffer_uuid: args.stafferId, timezone: args.zone, from, days: 3 },
    now,
  );
  return answer.dates
    .flatMap((day) => day.slots)
    .filter((slot) => Date.parse(slot.start_time) !== args.wanted)
    .sort(
      (a, b) =>
        Math.abs(Date.parse(a.start_time) - args.wanted) - Math.abs(Date.parse(b.start_time) - args.wanted),
    )
    .slice(0, count)
    .sort((a, b) => Date.parse(a.start_time) - Date.parse(b.start_time));
}

/** The contact form's fields, named as the API names them (so are their errors). */
export interface ContactDetails {
  customer_phone: string;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  booking_comment: string;
  booking_callback: boolean | undefined;
  /** The text message consent box: undefined when the page did not show it. */
  text_consent: boolean | undefined;
}

/** A field's trouble as the page words it (its messages in i18n.ts). */
export type DetailError = 'required' | 'invalidField' | 'invalidPhone' | 'invalidEmail' | 'tooLong';
export type DetailErrors = Partial<Record<'customer_phone' | BookingFormField | 'text_consent', DetailError>>;

const DETAIL_ERROR: Record<InputIssue, DetailError> = {
  required: 'required',
  invalid: 'invalidField',
  invalid_phone: 'invalidPhone',
  invalid_email: 'invalidEmail',
  too_long: 'tooLong',
};
const CONTACT_FIELDS = ['customer_phone', ...BOOKING_FORM_FIELDS] as const;

/** Reads the contact form: any shape of body gives strings or nothing, never an exception. */
export function readDetails(body: Record<string, unknown>): ContactDetails {
  const text = (key: string) => {
    const value = body[key];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' ? first.trim() : '';
  };
  return {
    customer_phone: text('customer_phone'),
    customer_first_name: text('customer_first_name'),
    customer_last_name: text('customer_last_name'),
    customer_email: text('customer_email'),
    booking_comment: text('booking_comment'),
    booking_callback: text('booking_callback_shown') === '1' ? text('booking_callback') === 'yes' : undefined,
    text_consent: text('text_consent_shown') === '1' ? text('text_consent') === 'yes' : undefined,
  };
}

/** What the page books: the slot chosen and the details typed, as the API's create takes them. */
export interface PageBooking {
  locationId: string;
  serviceId: string;
  stafferId: string | undefined;
  /** false: a rental (docs/resources.md "Rentals"), booked with no staffer whatever the setting. */
  stafferNeeded?: boolean | undefined;
  /** UTC ISO 8601. */
  start: string;
  details: ContactDetails;
  /** The page's language: stored with the booking, so the customer's emails speak it. */
  language?: string | undefined;
  /** The `?ref=` of the link the customer came by. */
  ref?: string | undefined;
}

/** The API's create body of a page booking (fields the booking form hides are left out). */
function createInputOf(workspace: WorkspaceRow, booking: PageBooking, phone: string): CreateBookingInput {
  const form = workspace.booking_form;
  const shown = (field: BookingFormField, value: string) =>
    form[field] === 'hidden' ? undefined : value || undefined;
  const { details } = booking;
  return {
    reserved_on: booking.start,
    location_uuid: booking.locationId,
    service_uuid: booking.serviceId,
    staffer_uuid: booking.stafferId ?? null,
    customer_phone: phone,
    customer_first_name: shown('customer_first_name', details.customer_first_name),
    customer_last_name: shown('customer_last_name', details.customer_last_name),
    customer_email: shown('customer_email', details.customer_email),
    booking_comment: shown('booking_comment', details.booking_comment),
    booking_callback: form.booking_callback === 'hidden' ? undefined : details.booking_callback,
    source: 'online-booking',
    language: booking.language,
    ref: booking.ref,
    // Asked only while the workspace sends texts.
    text_consent: textConsentAsked(workspace) ? booking.details.text_consent === true : undefined,
  };
}

/**
 * The API's create input path (`parseCreateBooking`: its schema's limits, its phone and email
 * rules, the booking-form setting), checked before anything is written so every field's error
 * shows at once, in the page's words. The phone may be typed nationally: the location's country
 * is its default. Answers the phone as E.164 when it is valid.
 */
export function checkDetails(
  workspace: WorkspaceRow,
  location: LocationRow,
  booking: PageBooking,
): { errors: DetailErrors; phone: string | undefined } {
  const input = createInputOf(workspace, booking, booking.details.customer_phone);
  // A workspace that requires consent to texts books only with the box ticked.
  const consent: DetailErrors =
    textConsentAsked(workspace) === 'required' && booking.details.text_consent !== true
      ? { text_consent: 'required' }
      : {};
  try {
    const { phone } = parseCreateBooking(workspace, input, {
      defaultCountry: defaultCountry(workspace, location),
      stafferNeeded: booking.stafferNeeded,
    });
    return Object.keys(consent).length > 0 ? { errors: consent, phone: undefined } : { errors: {}, phone };
  } catch (error) {
    if (!(error instanceof InvalidInput)) throw error;
    return { errors: { ...detailErrorsOf(error), ...consent }, phone: undefined };
  }
}

/** Whether the page asks for consent to texts, and how: only while the workspace sends them. */
export function textConsentAsked(workspace: WorkspaceRow): 'optional' | 'required' | undefined {
  const settings = textSettingsOf(workspace.text_settings);
  return settings.enabled ? settings.consent : undefined;
}

/** The contact fields' errors of a refused create, in the page's words. */
export function detailErrorsOf(error: InvalidInput): DetailErrors {
  const errors: DetailErrors = {};
  for (const field of CONTACT_FIELDS) {
    const issue = error.issues[field];
    if (issue) errors[field] = DETAIL_ERROR[issue];
  }
  return errors;
}

/** The country of a nationally typed phone: the location's, else the region of the workspace locale. */
export function defaultCountry(workspace: WorkspaceRow, location: LocationRow): CountryCode | undefined {
  const iso = location.country_iso.toUpperCase();
  if (isSupportedCountry(iso)) return iso;
  const region = new Intl.Locale(workspace.locale).maximize().region ?? '';
  return isSupportedCountry(region) ? region : undefined;
}

/** Why the page's create made no booking: the slot was taken, or a field was refused. */
export type BookRefusal = { kind: 'taken' } | { kind: 'invalid'; errors: DetailErrors };

/** What the page collects when booking a service, and the cancellation terms it shows before. */
export interface PagePayment {
  /** From `amountDue`: mode `payment` charges `amount` now (a deposit or the price), `setup` keeps a card. */
  due: ReturnType<typeof amountDue>;
  cancellation: CancellationPolicy;
  /** Where confirming leads: the provider's hosted checkout (the page's form-action must allow it). */
  checkoutOrigins: string[];
}

/**
 * The payment a booking of `service` takes on the page: undefined when its policy collects
 * nothing or the workspace has no provider connected (then the page books exactly as before).
 */
export async function pagePayment(
  db: Db,
  config: PaymentConfig,
  workspace: WorkspaceRow,
  service: ServiceRecord,
): Promise<PagePayment | undefined> {
  const policy = paymentPolicyOf(service.payment_policy);
  const due = amountDue(policy, service.price);
  if (due.mode === 'none') return undefined;
  if (!(await hasPaymentProvider(db, workspace.id))) return undefined;
  return { due, cancellation: policy.cancellation, checkoutOrigins: checkoutOrigins(config) };
}

/**
 * Creates the booking through the API's own create (the database decides: exclusion constraint
 * and seat rows), with source "online-booking", on the context's unit of work: the route runs it
 * under the form's idempotency key, so a double submit is one booking. `phone` is the E.164 form
 * `checkDetails` answered. When the service's policy collects money and a provider is connected,
 * it is the API's `collect_payment` create: the booking holds its slot awaiting payment and the
 * answer carries the provider's hosted checkout, where the page sends the customer. Throws the
 * create's errors; `bookRefusal` says which of them the customer is shown.
 */
export async function bookFromPage(
  ctx: BookingContext,
  config: PaymentConfig,
  booking: PageBooking & { service: ServiceRecord },
  phone: string,
): Promise<{ bookingId: string; checkoutUrl: string | undefined }> {
  const collect = (await pagePayment(ctx.db, config, ctx.workspace, booking.service)) !== undefined;
  const made = await createBookingCollecting(ctx, config, {
    ...createInputOf(ctx.workspace, booking, phone),
    collect_payment: collect,
  });
  const checkoutUrl = made.payment_state === 'awaiting_payment' ? (made.payment_url ?? undefined) : undefined;
  return { bookingId: made.id, checkoutUrl };
}

/** How often and how many times the page offers to repeat a booking of a service bookable in series. */
export const PAGE_SERIES_WEEKS = [1, 2, 3, 4] as const;
export const PAGE_SERIES_MAX_TIMES = 12;

/**
 * The series the confirm step offers (docs/series.md): only for a service the business marked
 * bookable in series, and not when money is collected on booking (a checkout is for one booking).
 */
export function pageSeriesOffered(service: ServiceRecord, payment: PagePayment | undefined): boolean {
  return service.series_bookable && payment === undefined;
}

/** The repeat the customer chose on the confirm step; undefined for "only this once". */
export function pageRepeatOf(body: Record<string, unknown>): { weeks: number; times: number } | undefined {
  const weeks = Number(body.repeat_weeks);
  const times = Number(body.repeat_times);
  if (!Number.isInteger(times) || times < 2 || times > PAGE_SERIES_MAX_TIMES) return undefined;
  if (!(PAGE_SERIES_WEEKS as readonly number[]).includes(weeks)) return undefined;
  return { weeks, times };
}

/**
 * A weekly series from the page: every occurrence through the same create (POST /series' path),
 * all or nothing, so the customer never holds half a series by surprise; a date not free answers
 * SeriesConflict with each date's verdict. Answers the first booking (its manage link).
 */
export async function bookSeriesFromPage(
  ctx: BookingContext,
  booking: PageBooking,
  phone: string,
  repeat: { weeks: number; times: number },
): Promise<{ bookingId: string }> {
  const outcome = await createSeries(ctx, {
    ...createInputOf(ctx.workspace, booking, phone),
    recurrence: { frequency: 'weekly', interval: repeat.weeks, count: repeat.times, mode: 'all_or_nothing' },
  });
  return { bookingId: outcome.results[0]!.bookingId! };
}

/** The starts of the other open bookings of a booking's series (the confirmation lists them). */
export async function pageSeriesStarts(
  db: Db,
  workspace: WorkspaceRow,
  booking: BookingView,
): Promise<number[]> {
  if (!booking.series_id) return [];
  const series = await readSeries(db, workspace.id, booking.series_id);
  return series.occurrences
    .filter((o) => !o.is_canceled && o.booking_uuid !== booking.id)
    .map((o) => Date.parse(o.start_time));
}

/** The refusal a create's error means to the customer; undefined for any other error. */
export function bookRefusal(error: unknown): BookRefusal | undefined {
  if (!(error instanceof AppError)) return undefined;
  if (error.code === 'slot_unavailable') return { kind: 'taken' };
  if (error instanceof InvalidInput) return { kind: 'invalid', errors: detailErrorsOf(error) };
  if (error.code === 'validation_failed') {
    // A rule of the write itself (a service no longer offered, ...): the form names its field.
    const errors: DetailErrors = {};
    for (const field of CONTACT_FIELDS) if (error.errors?.[field]) errors[field] = 'invalidField';
    return { kind: 'invalid', errors };
  }
  return undefined;
}

export async function pageBooking(db: Db, workspace: WorkspaceRow, bookingId: string) {
  return findBookingView(db, workspace.id, bookingId);
}

/** Until when the customer may change the booking through the manage link (the workspace's cut-off). */
export function changeDeadline(workspace: WorkspaceRow, booking: BookingView): number {
  return booking.start_time.getTime() - workspace.manage_cutoff_minutes * 60_000;
}

export type ChangeRefusal = 'final' | 'cutoff';

export function changeRefusal(
  workspace: WorkspaceRow,
  booking: BookingView,
  now: number,
): ChangeRefusal | undefined {
  if (booking.status_type === 'canceled' || booking.status_type === 'completed') return 'final';
  return now > changeDeadline(workspace, booking) ? 'cutoff' : undefined;
}

/** A customer's change the manage link refuses, and why. */
export class ChangeRefused extends AppError {
  constructor(readonly reason: ChangeRefusal | 'taken') {
    super(409, 'change_refused', 'This booking cannot be changed through its manage link now.');
  }
}

/** The customer's cancel: the API's cancel with reason "canceled" (same webhooks). */
export async function cancelByCustomer(ctx: BookingContext, booking: BookingView) {
  const refusal = changeRefusal(ctx.workspace, booking, ctx.now);
  if (refusal) throw new ChangeRefused(refusal);
  await cancelBooking(ctx, booking.id, 'canceled');
}

/**
 * What the customer's cancel would do with their money now, for the question before it: the
 * late-cancellation fee, what goes back to the card and what is charged to it (minor units, each
 * left out when 0). Nothing for a booking that was not paid online or keeps no card.
 */
export async function cancelMoneyPreview(
  db: Db,
  workspace: WorkspaceRow,
  booking: BookingView,
  now: number,
): Promise<{ fee?: number; refund?: number; charge?: number }> {
  const settlement = await settlementPreview(db, workspace.id, booking.id, 'canceled', now);
  if (!settlement) return {};
  return {
    ...(settlement.fee > 0 ? { fee: settlement.fee } : {}),
    ...(settlement.refund > 0 ? { refund: settlement.refund } : {}),
    ...(settlement.charge > 0 ? { charge: settlement.charge } : {}),
  };
}

/** The customer's reschedule: the API's reschedule (same uuid, booking-updated + booking-rescheduled). */
export async function rescheduleByCustomer(ctx: BookingContext, booking: BookingView, start: string) {
  const refusal = changeRefusal(ctx.workspace, booking, ctx.now);
  if (refusal) throw new ChangeRefused(refusal);
  try {
    await rescheduleBooking(ctx, booking.id, start);
  } catch (error) {
    if (
      error instanceof AppError &&
      (error.code === 'slot_unavailable' || error.code === 'validation_failed')
    )
      throw new ChangeRefused('taken');
    throw error;
  }
}
