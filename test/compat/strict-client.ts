import { expect } from 'vitest';

/** How a strict client reads Kairos's answers: shared by the compatibility suite. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const OFFSET = /^[+-]\d{2}:\d{2}$/;
export const HHMM = /^\d{2}:\d{2}$/;
export const LEGACY_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+0000$/;

// biome-ignore lint/suspicious/noExplicitAny: a strict client checks each field below.
export type Json = any;

export function expectInteger(value: unknown, name: string): void {
  expect(Number.isInteger(value), `${name} = ${JSON.stringify(value)} is an integer`).toBe(true);
}

/** Every key present (null allowed only where listed). */
export function expectFields(object: Json, fields: string[], name: string, nullable: string[] = []): void {
  for (const field of fields) {
    expect(object, `${name}.${field}`).toHaveProperty([field]);
    if (!nullable.includes(field)) expect(object[field], `${name}.${field}`).not.toBeNull();
  }
}

/** A paginated list (`data`, `meta`, `links`), read strictly: integers, and totals that add up. */
export function expectPage(body: Json, name: string): void {
  expectFields(body, ['data', 'meta', 'links'], name);
  const { meta, links, data } = body;
  for (const key of ['current_page', 'last_page', 'per_page', 'total'])
    expectInteger(meta[key], `${name}.meta.${key}`);
  expect(meta.last_page, `${name}.meta.last_page`).toBe(Math.max(1, Math.ceil(meta.total / meta.per_page)));
  expect(data.length).toBeLessThanOrEqual(meta.per_page);
  if (meta.current_page < meta.last_page) expect(data.length, `${name}: a full page`).toBe(meta.per_page);
  if (meta.current_page === meta.last_page) {
    expect((meta.current_page - 1) * meta.per_page + data.length, `${name}: rows add up to total`).toBe(
      meta.total,
    );
  }
  expectFields(links, ['first', 'last', 'prev', 'next'], `${name}.links`, ['prev', 'next']);
}

export const BOOKING_FIELDS = [
  'uuid',
  'location_uuid',
  'start_time',
  'start_time_local',
  'end_time',
  'end_time_local',
  'timezone',
  'duration',
  'quantity',
  'status',
  'is_canceled',
  'is_completed',
  'cancel_reason',
  'staffer',
  'customer',
  'ordered_services',
  'order',
  'booking_comment',
  'public_notes',
  'booking_callback',
  'source',
  'links',
  'policy',
  'created_at',
  'updated_at',
];
export const LINE_FIELDS = [
  'uuid',
  'service_uuid',
  'name',
  'description',
  'quantity',
  'price',
  'price_formatted',
  'original_price',
  'original_price_formatted',
  'discount',
  'discount_formatted',
  'currency',
  'duration',
  'original_duration',
  'reserved_on',
  'reserved_until',
  'timezone',
];
export const ORDER_FIELDS = [
  'uuid',
  'currency',
  'subtotal',
  'subtotal_formatted',
  'tax',
  'tax_formatted',
  'total',
  'total_formatted',
  'amount_paid',
  'amount_paid_formatted',
  'payments',
];

export function expectBooking(booking: Json, name: string): void {
  expectFields(booking, BOOKING_FIELDS, name, ['cancel_reason', 'staffer', 'booking_callback']);
  expect(booking.uuid).toMatch(UUID);
  expect(booking.start_time).toMatch(UTC);
  expectInteger(booking.quantity, `${name}.quantity`);
  expectInteger(booking.duration.value, `${name}.duration.value`);
  // The customer's manage page and its calendar file, both absolute URLs.
  expect(booking.links.map((link: Json) => link.type)).toEqual(['manage', 'ical']);
  for (const link of booking.links) expect(() => new URL(link.link), `${name}.links`).not.toThrow();
  expectFields(booking.policy, ['cancel_until', 'reschedule_until'], `${name}.policy`);
  expect(booking.policy.cancel_until).toMatch(UTC);
  expectFields(booking.order, ORDER_FIELDS, `${name}.order`);
  for (const key of ['subtotal', 'tax', 'total', 'amount_paid'])
    expectInteger(booking.order[key], `${name}.order.${key}`);
  expect(booking.order.tax).toBe(0);
  let lineStart = booking.start_time;
  for (const [index, line] of booking.ordered_services.entries()) {
    const at = `${name}.ordered_services.${index}`;
    expectFields(line, LINE_FIELDS, at);
    for (const key of ['price', 'original_price', 'discount', 'quantity'])
      expectInteger(line[key], `${at}.${key}`);
    expect(line.reserved_on, `${at} starts where the previous line ends`).toBe(lineStart);
    expect(Date.parse(line.reserved_until) - Date.parse(line.reserved_on)).toBe(line.duration.value * 60_000);
    lineStart = line.reserved_until;
  }
  expect(lineStart, `${name}: the lines fill the booking`).toBe(booking.end_time);
}
