import { type Static, Type } from 'typebox';
import { Nullable } from '../platform/http/nullable.js';
import { PaginationQuery } from '../platform/http/pagination.js';
import { DurationJson, IsoInstant, Uuid } from '../platform/http/responses.js';
import { BookingResourceJson } from '../resources/resources.schemas.js';

export const CANCEL_REASONS = [
  'canceled',
  'didnt_come',
  'postponed',
  'wrong_order',
  'spam',
  'other',
  'abandoned',
  'rescheduled',
  'not_confirmed',
] as const;

export const BookingParams = Type.Object({ bookingUuid: Type.String({ format: 'uuid' }) });

// Always required: stated here. What the workspace's booking form or staffer selection requires,
// and blank strings, are checked by bookings.rules.ts; the route merges both into one 422.
export const CreateBookingBody = Type.Object({
  reserved_on: Type.String({ maxLength: 64, description: 'UTC ISO 8601, e.g. 2026-09-10T12:00:00Z' }),
  location_uuid: Type.String({ format: 'uuid' }),
  service_uuid: Type.String({ format: 'uuid' }),
  // A union, not Nullable: a form body's empty field coerces to null through its null branch.
  staffer_uuid: Type.Optional(
    Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'Required unless the workspace assigns staffers automatically',
    }),
  ),
  customer_phone: Type.String({ maxLength: 40, description: 'International format, e.g. +4915112345678' }),
  customer_first_name: Type.Optional(
    Type.String({ maxLength: 200, description: 'Required when the booking form says so' }),
  ),
  customer_last_name: Type.Optional(
    Type.String({ maxLength: 200, description: 'Required when the booking form says so' }),
  ),
  customer_email: Type.Optional(
    Type.String({ maxLength: 320, description: 'Required when the booking form says so' }),
  ),
  booking_comment: Type.Optional(
    Type.String({ maxLength: 5000, description: 'Required when the booking form says so' }),
  ),
  // null stays null (not sent) rather than being coerced to false, so a form that requires the
  // field refuses it.
  booking_callback: Type.Optional(
    Nullable(Type.Boolean({ description: 'Required when the booking form says so' })),
  ),
  source: Type.Optional(Type.String({ maxLength: 100, description: "Origin of the booking; default 'api'" })),
  collect_payment: Type.Optional(
    Type.Boolean({
      description:
        "true: Kairos collects what the service's payment policy asks (docs/payments.md): the booking waits " +
        'in payment state `awaiting_payment`, holding its slot, and `links[]` carries the `payment` link to the ' +
        "provider's hosted page. Absent or false: confirmed as before, nothing collected.",
    }),
  ),
});
export type CreateBookingBody = Static<typeof CreateBookingBody>;

export const RescheduleBody = Type.Object({
  reserved_on: Type.String({ description: 'UTC ISO 8601 date-time' }),
});
export const StatusBody = Type.Object({ status_uuid: Type.String({ format: 'uuid' }) });
export const PublicNoteBody = Type.Object({ value: Type.String({ minLength: 1, maxLength: 5000 }) });
export const StafferBody = Type.Object({ staffer_uuid: Type.String({ format: 'uuid' }) });

export const ResourcesBody = Type.Object({
  resource_uuids: Type.Array(Type.String({ format: 'uuid' }), {
    maxItems: 20,
    description:
      "The units the booking's session holds from now on: live resources of its location, free for its whole span (docs/resources.md)",
  }),
});
export const ServicesBody = Type.Object({
  service_uuids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 20 }),
});
export const CompleteBody = Type.Object({
  account_uuid: Type.String({ format: 'uuid' }),
  paid_amount: Type.Integer({
    minimum: 0,
    maximum: 1_000_000_000,
    description: 'Minor units of the workspace currency (at most 1,000,000,000, like a price)',
  }),
});
export const CancelBody = Type.Object({
  cancel_reason: Type.Optional(Type.Union([Type.Enum(CANCEL_REASONS), Type.Null()])),
});

// Bounded like every instant we read (platform/time/instant.ts): year 0000 is refused by one
// store and read by the other, and no booking lies outside these years.
const FilterInstant = Type.String({
  format: 'date-time',
  // One second past the epoch: ajv-formats reads an epoch limit (0 ms) as no limit at all.
  formatMinimum: '1970-01-01T00:00:01Z',
  formatMaximum: '9998-12-31T23:59:59Z',
});

export const ListBookingsQuery = Type.Object({
  ...PaginationQuery.properties,
  location_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  staffer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  customer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  status_type: Type.Optional(Type.Enum(['new', 'confirmed', 'custom', 'completed', 'canceled'])),
  reserved_on_from: Type.Optional(FilterInstant),
  reserved_on_to: Type.Optional(FilterInstant),
  updated_since: Type.Optional(FilterInstant),
});

const StatusRef = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  type: Type.Enum(['new', 'confirmed', 'custom', 'completed', 'canceled']),
});

const Money = Type.Integer({ description: 'Minor units of the workspace currency' });

/** The money side of a booking (the booking's `order`, with `tax`). */
export const OrderJson = Type.Object({
  uuid: Uuid,
  currency: Type.String(),
  subtotal: Money,
  subtotal_formatted: Type.String(),
  tax: Money,
  tax_formatted: Type.String(),
  total: Money,
  total_formatted: Type.String(),
  amount_paid: Money,
  amount_paid_formatted: Type.String(),
  payments: Type.Array(
    Type.Object({
      uuid: Uuid,
      account_uuid: Uuid,
      amount: Money,
      provider: Type.Enum(['manual', 'stripe'], { description: 'manual: recorded by /status/complete' }),
      reference: Nullable(Type.String({ description: "The provider's id of the charge or refund" })),
      kind: Type.Enum(['payment', 'deposit', 'prepayment', 'late_cancel_fee', 'no_show_fee', 'refund'], {
        description:
          'refund: money back to the customer (its amount is positive and counts against amount_paid)',
      }),
      status: Type.Enum(['pending', 'succeeded', 'failed']),
      created_at: IsoInstant,
    }),
  ),
});

/** One line of `ordered_services`, with the fields integrations of the real service read. */
export const OrderedServiceJson = Type.Object({
  uuid: Uuid,
  service_uuid: Uuid,
  name: Type.String(),
  description: Type.String(),
  quantity: Type.Integer(),
  price: Money,
  price_formatted: Type.String(),
  original_price: Money,
  original_price_formatted: Type.String(),
  discount: Money,
  discount_formatted: Type.String(),
  currency: Type.String(),
  duration: DurationJson,
  original_duration: DurationJson,
  reserved_on: IsoInstant,
  reserved_until: IsoInstant,
  timezone: Type.String({ examples: ['Europe/Berlin'] }),
});

/** A booking, as answered. */
export const BookingJson = Type.Object({
  uuid: Uuid,
  location_uuid: Uuid,
  start_time: IsoInstant,
  start_time_local: Type.String({ examples: ['2026-09-10T14:00:00+02:00'] }),
  end_time: IsoInstant,
  end_time_local: Type.String(),
  timezone: Type.String(),
  duration: DurationJson,
  quantity: Type.Integer(),
  status: StatusRef,
  is_canceled: Type.Boolean(),
  is_completed: Type.Boolean(),
  cancel_reason: Nullable(Type.Enum(CANCEL_REASONS)),
  staffer: Nullable(
    Type.Object(
      { uuid: Uuid, first_name: Type.String(), last_name: Type.String() },
      {
        description:
          'null for a rental: a service that needs a resource and no staffer (docs/resources.md "Rentals")',
      },
    ),
  ),
  customer: Type.Object({
    uuid: Uuid,
    phone: Type.String({ examples: ['+4915112345678'] }),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
  }),
  ordered_services: Type.Array(OrderedServiceJson),
  resources: Type.Array(BookingResourceJson, {
    description:
      'The units (rooms, chairs, equipment) the booking holds for its whole span, buffers included; ' +
      'a group class shares its units among its seats; [] when its services need none or it is canceled (docs/resources.md)',
  }),
  order: OrderJson,
  booking_comment: Type.String(),
  public_notes: Type.String({ description: 'The booking comment and every added note, joined by newlines' }),
  booking_callback: Nullable(Type.Boolean()),
  source: Type.String(),
  links: Type.Array(
    Type.Object({
      type: Type.Enum(['manage', 'ical', 'payment'], {
        description:
          '"manage": the customer\'s manage page; "ical": its RFC 5545 file of the booking; "payment": the ' +
          "provider's hosted page, while money is due",
      }),
      link: Type.String({ format: 'uri' }),
    }),
    {
      description:
        "The customer's own links, absolute under PUBLIC_URL (without it, the address the server listens on): " +
        '`manage` (`/book/<slug>/manage/<token>`: see, cancel, reschedule until the cut-off) and `ical` ' +
        '(the same plus `/calendar.ics`). The token is signed; the links open until 30 days after the booking ends.',
    },
  ),
  payment: Type.Optional(
    Type.Object(
      {
        state: Type.Enum(['awaiting_payment', 'paid', 'card_on_file', 'refunded', 'failed']),
        hold_until: Nullable(IsoInstant),
      },
      {
        description:
          'Only on bookings that collect money (docs/payments.md). awaiting_payment: the slot is held until ' +
          'hold_until, then released (canceled, reason abandoned); failed: it was.',
      },
    ),
  ),
  series_uuid: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        'Only on an occurrence of a series (recurring bookings, docs/series.md): the series, GET /series/{uuid}',
    }),
  ),
  policy: Type.Object(
    {
      cancel_cutoff_minutes: Type.Integer(),
      cancel_until: IsoInstant,
      reschedule_cutoff_minutes: Type.Integer(),
      reschedule_until: IsoInstant,
    },
    { description: 'Until when the customer may cancel or reschedule through the manage link' },
  ),
  created_at: IsoInstant,
  updated_at: IsoInstant,
});

export const PublicNoteJson = Type.Object({ uuid: Uuid, value: Type.String(), created_at: IsoInstant });

export const HistoryEntryJson = Type.Object({
  uuid: Uuid,
  action: Type.Enum([
    'created',
    'rescheduled',
    'status_changed',
    'note_added',
    'staffer_changed',
    'services_changed',
    'resources_changed',
    'completed',
    'canceled',
  ]),
  changes: Type.Object(
    {},
    { additionalProperties: true, description: 'What changed; keys depend on the action' },
  ),
  actor: Type.Object({ type: Type.Enum(['api_key', 'user', 'system', 'cli']), uuid: Nullable(Uuid) }),
  created_at: IsoInstant,
});
