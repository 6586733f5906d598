import type { CountryCode } from 'libphonenumber-js';
import { normalizePhone } from '../customers/phone.rules.js';
import { FieldErrorBag, type FieldErrors, type InputIssue, InvalidInput } from '../errors.js';
import type { BookingFormField } from '../platform/db/schema.js';
import { schemaErrorsOf } from '../platform/http/validator.js';
import { parseInstant } from '../platform/time/instant.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { CreateBookingBody, ServicesBody, StafferBody } from './bookings.schemas.js';

/** The fields of POST /bookings, as far as they passed the route schema's type checks. */
export interface CreateBookingInput {
  reserved_on?: string | undefined;
  location_uuid?: string | undefined;
  service_uuid?: string | undefined;
  /** Several services in one booking (POST /bookings/cart); when given, service_uuid is its first. */
  service_uuids?: string[] | undefined;
  staffer_uuid?: string | null | undefined;
  customer_phone?: string | undefined;
  customer_first_name?: string | undefined;
  customer_last_name?: string | undefined;
  customer_email?: string | undefined;
  booking_comment?: string | undefined;
  booking_callback?: boolean | null | undefined;
  source?: string | undefined;
  /**
   * The customer's language, set by the booking page (its page language) so their emails speak
   * it. Not part of the API's body: its schema drops unknown keys, so API bookings keep the
   * workspace locale.
   */
  language?: string | undefined;
  /**
   * The booking page's text message consent (true, false), or undefined when not asked. Not part
   * of the API's body either.
   */
  text_consent?: boolean | undefined;
  /** The booking page link's `?ref=` (reports' "bookings by source"). Not part of the API's body. */
  ref?: string | undefined;
}

export interface CheckedCreateInput {
  errors: FieldErrors;
  /** For each field in `errors`, what its trouble is. */
  issues: Record<string, InputIssue>;
  start: number | undefined;
  phone: string | undefined;
  stafferId: string | undefined;
}

export interface CreateParseOptions {
  /** The route schema's findings, where a route validated the body already (the API's). */
  schemaErrors?: FieldErrors;
  /** The country a phone typed without `+` or `00` is read in (the booking page's location's). */
  defaultCountry?: CountryCode | undefined;
  /**
   * false: the booking's services need no staffer (a rental, docs/resources.md "Rentals"), so the
   * workspace's `staffer_selection: 'required'` does not ask for one. Default true.
   */
  stafferNeeded?: boolean | undefined;
}

const FORM_FIELDS: BookingFormField[] = [
  'customer_first_name',
  'customer_last_name',
  'customer_email',
  'booking_comment',
  'booking_callback',
];
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The one input path of a new booking, for the API, the panel and the booking page alike: the
 * body schema (its types and limits) and the workspace's rules, one 422 (`InvalidInput`) naming
 * every bad field by its API name, with the API's messages and each field's typed issue. Where
 * both name a field, the schema's message (wrong type, bad format, too long) is the precise one.
 * Answers the checked start, phone (E.164) and staffer.
 */
export function parseCreateBooking(
  workspace: WorkspaceRow,
  input: CreateBookingInput,
  options: CreateParseOptions = {},
): CheckedCreateInput {
  const schemaErrors = options.schemaErrors ?? {
    ...schemaErrorsOf(CreateBookingBody, input),
    ...serviceListErrors(input.service_uuids),
  };
  const checked = checkCreateBookingInput(workspace, input, options);
  const errors = { ...checked.errors, ...schemaErrors };
  if (Object.keys(errors).length === 0) return checked;
  const issues = { ...checked.issues };
  for (const field of Object.keys(schemaErrors)) issues[field] = schemaIssue(field, input);
  throw new InvalidInput(errors, issues);
}

/**
 * Several services in one booking (the panel's form): each a uuid, at most as many as a booking
 * takes. They are the create's `service_uuid` field, so its errors name `service_uuid.N`.
 */
function serviceListErrors(serviceIds: string[] | undefined): FieldErrors {
  if (serviceIds === undefined || serviceIds.length <= 1) return {};
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(schemaErrorsOf(ServicesBody, { service_uuids: serviceIds })))
    errors[field.replace(/^service_uuids/, 'service_uuid')] = messages;
  return errors;
}

/** A schema refusal's issue: over the field's length limit, or otherwise not what it must be. */
function schemaIssue(field: string, input: CreateBookingInput): InputIssue {
  const value = (input as Record<string, unknown>)[field];
  const limit = (CreateBookingBody.properties as Record<string, { maxLength?: number }>)[field]?.maxLength;
  return typeof value === 'string' && limit !== undefined && value.length > limit ? 'too_long' : 'invalid';
}

/** The most characters the API takes in `field` of a new booking (the booking page's inputs say it too). */
export function createFieldLimit(field: keyof CreateBookingBody): number | undefined {
  return (CreateBookingBody.properties[field] as { maxLength?: number }).maxLength;
}

/**
 * The rules of a new booking the schema cannot state: blank strings, a parseable instant and
 * phone, and the fields this workspace's booking form and staffer selection require. The service
 * calls it again before it writes. Values of the wrong type read as absent (the schema names them).
 */
export function checkCreateBookingInput(
  workspace: WorkspaceRow,
  input: CreateBookingInput,
  options: Pick<CreateParseOptions, 'defaultCountry' | 'stafferNeeded'> = {},
): CheckedCreateInput {
  const errors = new FieldErrorBag();
  const issues: Record<string, InputIssue> = {};
  const add = (field: string, issue: InputIssue, message: string) => {
    errors.add(field, message);
    issues[field] ??= issue;
  };
  for (const field of ['reserved_on', 'location_uuid', 'service_uuid', 'customer_phone'] as const) {
    if (isBlank(input[field])) add(field, 'required', `The ${field} field is required.`);
  }
  const start = isBlank(input.reserved_on) ? undefined : parseInstant(input.reserved_on!);
  if (!isBlank(input.reserved_on) && start === undefined) {
    add(
      'reserved_on',
      'invalid',
      'The reserved_on field must be an ISO 8601 date-time such as 2026-09-10T12:00:00Z.',
    );
  }
  const phone = isBlank(input.customer_phone)
    ? undefined
    : normalizePhone(input.customer_phone!, options.defaultCountry);
  if (!isBlank(input.customer_phone) && phone === undefined) {
    add(
      'customer_phone',
      'invalid_phone',
      'The customer_phone field must be a valid phone number in international format, e.g. +4915112345678.',
    );
  }
  for (const field of FORM_FIELDS) {
    const value = input[field];
    const present = field === 'booking_callback' ? typeof value === 'boolean' : !isBlank(value);
    if (workspace.booking_form[field] === 'required' && !present)
      add(field, 'required', `The ${field} field is required.`);
  }
  if (!isBlank(input.customer_email) && !EMAIL_PATTERN.test(input.customer_email!.trim())) {
    add('customer_email', 'invalid_email', 'The customer_email field must be a valid email address.');
  }
  const stafferId = isBlank(input.staffer_uuid) ? undefined : (input.staffer_uuid as string);
  if (
    stafferId === undefined &&
    workspace.staffer_selection === 'required' &&
    options.stafferNeeded !== false
  ) {
    add('staffer_uuid', 'required', 'The staffer_uuid field is required.');
  }
  return { errors: errors.toJSON(), issues, start, phone, stafferId };
}

export interface CheckedReschedule {
  start: number;
  /** The staffer to move to as well (the panel's "Move to…"); undefined keeps the booking's. */
  stafferId: string | undefined;
}

/**
 * The one input path of a booking's move to another time: PUT /reschedule, the panel's "Move
 * to…" (and the calendar's drag) and the manage link's reschedule all pass through it, in the
 * service. `reserved_on` an ISO 8601 instant, `staffer_uuid` (when given) a uuid; one 422
 * (`InvalidInput`) names both by their API names.
 */
export function parseReschedule(input: { reserved_on?: unknown; staffer_uuid?: unknown }): CheckedReschedule {
  const errors: FieldErrors = {};
  const issues: Record<string, InputIssue> = {};
  const start = typeof input.reserved_on === 'string' ? parseInstant(input.reserved_on) : undefined;
  if (start === undefined) {
    errors.reserved_on = [
      'The reserved_on field must be an ISO 8601 date-time such as 2026-09-10T12:00:00Z.',
    ];
    issues.reserved_on = 'invalid';
  }
  const stafferId = isBlank(input.staffer_uuid) ? undefined : (input.staffer_uuid as string);
  if (stafferId !== undefined) {
    for (const [field, messages] of Object.entries(
      schemaErrorsOf(StafferBody, { staffer_uuid: stafferId }),
    )) {
      errors[field] = messages;
      issues[field] = 'invalid';
    }
  }
  if (Object.keys(errors).length > 0) throw new InvalidInput(errors, issues);
  return { start: start!, stafferId };
}

export function isBlank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}
