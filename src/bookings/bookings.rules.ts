import { normalizePhone } from '../customers/phone.rules.js';
import { FieldErrorBag, type FieldErrors } from '../errors.js';
import type { BookingFormField } from '../platform/db/schema.js';
import { parseInstant } from '../platform/time/instant.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';

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
}

export interface CheckedCreateInput {
  errors: FieldErrors;
  start: number | undefined;
  phone: string | undefined;
  stafferId: string | undefined;
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
 * The rules of a new booking the schema cannot state: blank strings, a parseable instant and
 * phone, and the fields this workspace's booking form and staffer selection require. The route
 * merges these with its schema's errors, so one 422 names every bad field; the service calls it
 * again before it writes. Values of the wrong type read as absent (the schema names them).
 */
export function checkCreateBookingInput(
  workspace: WorkspaceRow,
  input: CreateBookingInput,
): CheckedCreateInput {
  const errors = new FieldErrorBag();
  for (const field of ['reserved_on', 'location_uuid', 'service_uuid', 'customer_phone'] as const) {
    if (isBlank(input[field])) errors.add(field, `The ${field} field is required.`);
  }
  const start = isBlank(input.reserved_on) ? undefined : parseInstant(input.reserved_on!);
  if (!isBlank(input.reserved_on) && start === undefined) {
    errors.add(
      'reserved_on',
      'The reserved_on field must be an ISO 8601 date-time such as 2026-09-10T12:00:00Z.',
    );
  }
  const phone = isBlank(input.customer_phone) ? undefined : normalizePhone(input.customer_phone!);
  if (!isBlank(input.customer_phone) && phone === undefined) {
    errors.add(
      'customer_phone',
      'The customer_phone field must be a valid phone number in international format, e.g. +4915112345678.',
    );
  }
  for (const field of FORM_FIELDS) {
    const value = input[field];
    const present = field === 'booking_callback' ? typeof value === 'boolean' : !isBlank(value);
    if (workspace.booking_form[field] === 'required' && !present)
      errors.add(field, `The ${field} field is required.`);
  }
  if (!isBlank(input.customer_email) && !EMAIL_PATTERN.test(input.customer_email!.trim())) {
    errors.add('customer_email', 'The customer_email field must be a valid email address.');
  }
  const stafferId = isBlank(input.staffer_uuid) ? undefined : (input.staffer_uuid as string);
  if (stafferId === undefined && workspace.staffer_selection === 'required') {
    errors.add('staffer_uuid', 'The staffer_uuid field is required.');
  }
  return { errors: errors.toJSON(), start, phone, stafferId };
}

export function isBlank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}
