/**
 * What each row of an imported CSV file asks for (docs/import-export.md), decided without the
 * store: the file's columns, each row's values read and checked, and whether the row creates,
 * updates or leaves alone what the workspace already has. The service then applies each row
 * through the features' own services, whose rules (and for bookings the database) decide last.
 */
import { normalizePhone } from '../customers/phone.rules.js';
import { parseMoneyInput } from '../platform/money.js';
import { parseInstant } from '../platform/time/instant.js';
import { resolveWallTime } from '../platform/time/zone.js';

export const IMPORT_KINDS = ['customers', 'services', 'staffers', 'bookings'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

export const isImportKind = (value: unknown): value is ImportKind =>
  typeof value === 'string' && (IMPORT_KINDS as readonly string[]).includes(value);

/** The columns each kind reads; any other column (an export's uuid, created_at...) is ignored. */
export const IMPORT_COLUMNS: Record<ImportKind, { required: string[]; optional: string[] }> = {
  customers: { required: ['phone'], optional: ['first_name', 'last_name', 'email'] },
  services: {
    required: ['name', 'duration_minutes'],
    optional: ['price', 'description', 'category', 'capacity', 'locations'],
  },
  staffers: {
    required: ['first_name'],
    optional: ['last_name', 'email', 'position', 'services', 'locations'],
  },
  bookings: {
    required: ['start', 'location', 'services', 'customer_phone'],
    optional: ['staffer', 'customer_first_name', 'customer_last_name', 'customer_email', 'booking_comment'],
  },
};

/** At most this many rows per file: a preview lists them all, and a run books them one by one. */
export const MAX_IMPORT_ROWS = 5000;

/** A column name as people write it: "First name", "first-name" and "FIRST_NAME" are one. */
export const columnKey = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** The file's columns against the kind's: which are missing, which are ignored. */
export function checkColumns(kind: ImportKind, header: string[]) {
  const keys = header.map(columnKey);
  const { required, optional } = IMPORT_COLUMNS[kind];
  return {
    missing: required.filter((column) => !keys.includes(column)),
    ignored: header.filter((_, index) => ![...required, ...optional].includes(keys[index]!)),
  };
}

/** A row's values keyed by column key ("First name" → first_name). */
export function rowValues(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [columnKey(name), value]));
}

/** Names in one cell: "Cut | Colour" or "Cut + Colour"; empty parts dropped. */
export const listCell = (cell: string | undefined) =>
  (cell ?? '')
    .split(/\s*[|+]\s*/)
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** Names are matched as people type them: case and surrounding spaces do not matter. */
export const nameKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

export type RowErrors = Record<string, string[]>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface CustomerRowPlan {
  phone: string;
  first_name: string;
  last_name: string;
  email: string;
}

export function readCustomerRow(values: Record<string, string>): {
  plan?: CustomerRowPlan;
  errors: RowErrors;
} {
  const errors: RowErrors = {};
  const phone = normalizePhone(values.phone ?? '');
  if (phone === undefined)
    errors.phone = ['Not a phone number in international format, e.g. +4915112345678.'];
  const email = values.email ?? '';
  if (email !== '' && !EMAIL.test(email)) errors.email = ['Not an email address.'];
  if (Object.keys(errors).length > 0) return { errors };
  return {
    plan: { phone: phone!, first_name: values.first_name ?? '', last_name: values.last_name ?? '', email },
    errors,
  };
}

/**
 * What an existing customer's row changes: the file's non-empty values that differ. An empty
 * cell never clears what the customer has (a shorter file must not erase names).
 */
export function customerChanges(
  existing: { first_name: string; last_name: string; email: string },
  plan: CustomerRowPlan,
): Partial<CustomerRowPlan> {
  const changes: Partial<CustomerRowPlan> = {};
  for (const field of ['first_name', 'last_name', 'email'] as const) {
    if (plan[field] !== '' && plan[field] !== existing[field]) changes[field] = plan[field];
  }
  return changes;
}

/** A whole number cell within bounds, or an error text. */
function integerCell(text: string, min: number, max: number): number | string {
  if (!/^\d+$/.test(text.trim())) return `A whole number from ${min} to ${max}.`;
  const value = Number(text);
  return value < min || value > max ? `A whole number from ${min} to ${max}.` : value;
}

export interface ServiceRowPlan {
  name: string;
  duration_minutes: number;
  price?: number;
  description?: string;
  category?: string | null;
  capacity?: number;
  /** Location names; undefined when the column is absent or empty (keep or none). */
  locations?: string[];
}

export function readServiceRow(
  values: Record<string, string>,
  currency: string,
): { plan?: ServiceRowPlan; errors: RowErrors } {
  const errors: RowErrors = {};
  const name = (values.name ?? '').trim();
  if (name === '') errors.name = ['The name is required.'];
  const duration = integerCell(values.duration_minutes ?? '', 1, 1440);
  if (typeof duration === 'string') errors.duration_minutes = [duration];
  const plan: ServiceRowPlan = { name, duration_minutes: typeof duration === 'number' ? duration : 0 };
  if (values.price !== undefined && values.price !== '') {
    const price = parseMoneyInput(values.price, currency);
    if (price === undefined) errors.price = [`An amount in ${currency}, e.g. 25 or 25.50.`];
    else plan.price = price;
  }
  if (values.capacity !== undefined && values.capacity !== '') {
    const capacity = integerCell(values.capacity, 1, 1000);
    if (typeof capacity === 'string') errors.capacity = [capacity];
    else plan.capacity = capacity;
  }
  if (values.description !== undefined && values.description !== '') plan.description = values.description;
  if (values.category !== undefined && values.category !== '') plan.category = values.category;
  const locations = listCell(values.locations);
  if (locations.length > 0) plan.locations = locations;
  return Object.keys(errors).length > 0 ? { errors } : { plan, errors };
}

export interface StafferRowPlan {
  first_name: string;
  last_name: string;
  email: string;
  position?: string;
  services?: string[];
  locations?: string[];
}

export function readStafferRow(values: Record<string, string>): { plan?: StafferRowPlan; errors: RowErrors } {
  const errors: RowErrors = {};
  const first = (values.first_name ?? '').trim();
  if (first === '') errors.first_name = ['The first name is required.'];
  const email = (values.email ?? '').trim();
  if (email !== '' && !EMAIL.test(email)) errors.email = ['Not an email address.'];
  if (Object.keys(errors).length > 0) return { errors };
  const plan: StafferRowPlan = { first_name: first, last_name: (values.last_name ?? '').trim(), email };
  if (values.position) plan.position = values.position;
  const services = listCell(values.services);
  if (services.length > 0) plan.services = services;
  const locations = listCell(values.locations);
  if (locations.length > 0) plan.locations = locations;
  return { plan, errors };
}

/** A staffer's key in a file: their email when given, else their full name. */
export const stafferKey = (staffer: { first_name: string; last_name: string; email: string }) =>
  staffer.email !== ''
    ? `email:${staffer.email.toLowerCase()}`
    : `name:${nameKey(`${staffer.first_name} ${staffer.last_name}`)}`;

export interface BookingRowPlan {
  start: number;
  location: string;
  services: string[];
  staffer: string;
  customer: CustomerRowPlan;
  booking_comment: string;
}

/**
 * `start` is the wall time at the location ("2026-12-01 10:00", as the bookings export writes
 * it), or an instant with its offset ("2026-12-01T10:00:00+01:00"). A wall time that does not
 * exist that day (inside a spring-forward gap) is refused; one that exists twice (the autumn
 * hour) is the first.
 */
export function readStart(text: string, zone: string): number | undefined {
  const trimmed = text.trim();
  const wall = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})$/.exec(trimmed);
  if (wall) {
    const [, date, hours, minutes] = wall;
    if (Number(hours) > 23 || Number(minutes) > 59) return undefined;
    if (parseInstant(`${date}T00:00:00Z`) === undefined) return undefined;
    return resolveWallTime(zone, date!, Number(hours) * 60 + Number(minutes))[0];
  }
  return /(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) ? parseInstant(trimmed) : undefined;
}

export function readBookingRow(
  values: Record<string, string>,
  zoneOf: (location: string) => string | undefined,
  now: number,
): { plan?: BookingRowPlan; errors: RowErrors } {
  const errors: RowErrors = {};
  const location = (values.location ?? '').trim();
  const zone = zoneOf(location);
  if (zone === undefined) errors.location = [`No location named "${location}".`];
  const start = zone === undefined ? undefined : readStart(values.start ?? '', zone);
  if (zone !== undefined && start === undefined) {
    errors.start = ['A local date and time such as 2026-12-01 10:00 (that exists at the location).'];
  } else if (start !== undefined && start <= now) {
    errors.start = ['Only future bookings are imported.'];
  }
  const services = listCell(values.services);
  if (services.length === 0) errors.services = ['At least one service, e.g. "Cut" or "Cut + Colour".'];
  const customer = readCustomerRow({
    phone: values.customer_phone ?? '',
    first_name: values.customer_first_name ?? '',
    last_name: values.customer_last_name ?? '',
    email: values.customer_email ?? '',
  });
  for (const [field, messages] of Object.entries(customer.errors)) errors[`customer_${field}`] = messages;
  if (Object.keys(errors).length > 0) return { errors };
  return {
    plan: {
      start: start!,
      location,
      services,
      staffer: (values.staffer ?? '').trim(),
      customer: customer.plan!,
      booking_comment: values.booking_comment ?? '',
    },
    errors,
  };
}
