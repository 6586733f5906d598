import { type Static, Type } from 'typebox';

export const EntryParams = Type.Object({ entryUuid: Type.String({ format: 'uuid' }) });

const WindowJson = Type.Object({
  date: Type.String({
    format: 'date',
    description: "The day, in the location's zone",
    examples: ['2030-01-07'],
  }),
  from: Type.String({
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    description: 'Earliest start, HH:MM local',
  }),
  to: Type.String({
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    description: 'A start before this HH:MM (local) suits; after from',
  }),
});

export const JoinBody = Type.Object({
  location_uuid: Type.String({ format: 'uuid' }),
  service_uuid: Type.String({ format: 'uuid' }),
  staffer_uuid: Type.Optional(
    Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'Only this staffer; absent or null: any staffer of the service',
    }),
  ),
  customer_phone: Type.String({
    minLength: 1,
    maxLength: 40,
    description: 'Identifies the customer, as in a booking',
  }),
  customer_first_name: Type.Optional(Type.String({ maxLength: 255 })),
  customer_last_name: Type.Optional(Type.String({ maxLength: 255 })),
  customer_email: Type.Optional(Type.String({ maxLength: 255 })),
  windows: Type.Optional(
    Type.Array(WindowJson, { maxItems: 5, description: 'Up to five wanted times; required unless any_time' }),
  ),
  any_time: Type.Optional(Type.Boolean({ description: 'Every bookable time of the service suits' })),
  source: Type.Optional(Type.String({ maxLength: 255 })),
});
export type JoinBody = Static<typeof JoinBody>;

export const EntryQuery = Type.Object({
  location_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  service_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  staffer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  customer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  state: Type.Optional(
    Type.Union(
      [Type.Literal('waiting'), Type.Literal('offered'), Type.Literal('booked'), Type.Literal('left')],
      {
        description: 'Default: those still in line (waiting and offered)',
      },
    ),
  ),
});
export type EntryQuery = Static<typeof EntryQuery>;

export const EntryJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  location_uuid: Type.String({ format: 'uuid' }),
  service_uuid: Type.String({ format: 'uuid' }),
  staffer_uuid: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  customer: Type.Object({
    uuid: Type.String({ format: 'uuid' }),
    phone: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
  }),
  windows: Type.Array(WindowJson),
  any_time: Type.Boolean(),
  state: Type.Union([
    Type.Literal('waiting'),
    Type.Literal('offered'),
    Type.Literal('booked'),
    Type.Literal('left'),
  ]),
  source: Type.String(),
  booking_uuid: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  joined_at: Type.String({ format: 'date-time' }),
});

export const OfferJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  entry_uuid: Type.String({ format: 'uuid' }),
  location_uuid: Type.String({ format: 'uuid' }),
  service_uuid: Type.String({ format: 'uuid' }),
  staffer_uuid: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  start_time: Type.String({ format: 'date-time' }),
  held_until: Type.String({
    format: 'date-time',
    description: 'The time is held for this person until then',
  }),
  state: Type.Union([
    Type.Literal('open'),
    Type.Literal('claimed'),
    Type.Literal('expired'),
    Type.Literal('withdrawn'),
  ]),
  made_by: Type.Union([Type.Literal('freed'), Type.Literal('staff'), Type.Literal('auto')], {
    description:
      "'auto': a group-class seat booked from the line by the periodic round (auto_fill_group_seats)",
  }),
  booking_uuid: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

export const OfferQuery = Type.Object({
  entry_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  service_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  state: Type.Optional(
    Type.Union([
      Type.Literal('open'),
      Type.Literal('claimed'),
      Type.Literal('expired'),
      Type.Literal('withdrawn'),
    ]),
  ),
});
export type OfferQuery = Static<typeof OfferQuery>;

export const OfferByHandBody = Type.Object({
  reserved_on: Type.String({ description: 'The start to offer, ISO 8601 (UTC, or with an offset)' }),
  staffer_uuid: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Null()])),
});
export type OfferByHandBody = Static<typeof OfferByHandBody>;

export const ClaimBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 100, description: "The offer link's last path segment" }),
});
export type ClaimBody = Static<typeof ClaimBody>;

export const WaitlistSettingsJson = Type.Object({
  offer_mode: Type.Union([Type.Literal('one'), Type.Literal('all')], {
    description: "'one': the first in line gets a freed time; 'all': everyone it suits, at once",
  }),
  hold_minutes: Type.Integer({ minimum: 5, maximum: 1440, description: 'How long an offer holds its time' }),
  auto_fill_group_seats: Type.Boolean({
    description:
      'Group classes (capacity > 1): a freed seat is booked for the first suiting person in line rather than offered (default false)',
  }),
});
export const WaitlistSettingsBody = Type.Partial(WaitlistSettingsJson);
export type WaitlistSettingsBody = Static<typeof WaitlistSettingsBody>;
