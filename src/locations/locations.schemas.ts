import { type Static, Type } from 'typebox';
import { Nullable } from '../platform/http/nullable.js';

export const LocationParams = Type.Object({ locationUuid: Type.String({ format: 'uuid' }) });

const WALL_TIME = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
// An interval may end at midnight: "to": "24:00".
const WALL_TIME_END = '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$';

export const TimeRange = Type.Object({
  from: Type.String({ pattern: WALL_TIME, description: 'HH:MM, local time of the location' }),
  to: Type.String({ pattern: WALL_TIME_END, description: 'HH:MM (up to 24:00), after `from`' }),
});

const DayRanges = Type.Array(TimeRange, { maxItems: 12 });

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export const OpeningHours = Type.Object(
  {
    mon: Type.Optional(DayRanges),
    tue: Type.Optional(DayRanges),
    wed: Type.Optional(DayRanges),
    thu: Type.Optional(DayRanges),
    fri: Type.Optional(DayRanges),
    sat: Type.Optional(DayRanges),
    sun: Type.Optional(DayRanges),
  },
  { description: 'Weekday -> opening intervals; a missing day is closed. Replaced as a whole.' },
);

const Position = Type.Object({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lng: Type.Number({ minimum: -180, maximum: 180 }),
});

const Address = Type.Object(
  {
    address_1: Type.Optional(Type.String({ maxLength: 255 })),
    address_2: Type.Optional(Type.String({ maxLength: 255 })),
    city: Type.Optional(Type.String({ maxLength: 255 })),
    postal_code: Type.Optional(Type.String({ maxLength: 32 })),
    country_iso: Type.Optional(
      Type.String({ pattern: '^([A-Za-z]{2})?$', description: 'ISO 3166-1 alpha-2, e.g. DE' }),
    ),
    position: Type.Optional(Nullable(Position)),
  },
  { description: 'On PATCH only the given address fields change.' },
);

export const LocationCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  timezone: Type.String({ maxLength: 64, description: 'IANA time zone, e.g. Europe/Berlin' }),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  address: Type.Optional(Address),
  phone: Type.Optional(Type.String({ maxLength: 32 })),
  opening_hours: Type.Optional(OpeningHours),
  images: Type.Optional(
    Type.Array(Type.String({ format: 'http-url', maxLength: 2048, description: 'http(s) image URL' }), {
      maxItems: 20,
    }),
  ),
});
export type LocationCreateBody = Static<typeof LocationCreateBody>;

export const LocationUpdateBody = Type.Partial(LocationCreateBody);
export type LocationUpdateBody = Static<typeof LocationUpdateBody>;

/** A location, as answered. */
export const LocationJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  description: Type.String(),
  address: Type.Object({
    address_1: Type.String(),
    address_2: Type.String(),
    city: Type.String(),
    postal_code: Type.String(),
    country_iso: Type.String(),
    formatted: Type.String(),
    position: Nullable(Position),
  }),
  timezone: Type.Object({
    name: Type.String({ examples: ['Europe/Berlin'] }),
    offset: Type.String({ examples: ['+02:00'] }),
    short: Type.String({ examples: ['CEST'] }),
  }),
  phone: Type.String(),
  opening_hours: Type.Object({ days: OpeningHours }),
  images: Type.Array(Type.String()),
});
