import { type Static, Type } from 'typebox';
import { CANCEL_REASONS, CreateBookingBody } from '../bookings/bookings.schemas.js';
import { Nullable } from '../platform/http/nullable.js';
import { IsoInstant, Uuid } from '../platform/http/responses.js';
import { MAX_OCCURRENCES } from './recurrence.rules.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const SERIES_MODES = ['all_or_nothing', 'book_free'] as const;
export const SERIES_SCOPES = ['this', 'following', 'all'] as const;

const LocalDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', examples: ['2026-12-17'] });

export const RecurrenceBody = Type.Object(
  {
    frequency: Type.Enum(['daily', 'weekly', 'monthly'], {
      description:
        'daily: every `interval` days; weekly: every `interval` weeks on `weekdays`; monthly: every ' +
        '`interval` months on the same weekday of the same rank as the first (its 2nd Tuesday; a 5th ' +
        'weekday reads as the last)',
    }),
    interval: Type.Optional(Type.Integer({ minimum: 1, maximum: 52, default: 1 })),
    weekdays: Type.Optional(
      Type.Array(Type.Enum(WEEKDAYS), {
        uniqueItems: true,
        maxItems: 7,
        description: "weekly only; absent or empty: the first occurrence's weekday",
      }),
    ),
    until: Type.Optional(
      Type.String({
        ...LocalDate,
        description: "The last local date (the location's zone) an occurrence may fall on, inclusive",
      }),
    ),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_OCCURRENCES })),
    mode: Type.Optional(
      Type.Enum(SERIES_MODES, {
        description:
          'all_or_nothing (default): every occurrence is booked or none is (409 listing each one); ' +
          'book_free: the free ones are booked, the others reported',
      }),
    ),
  },
  {
    description:
      'Exactly one of `until` and `count`; at most 52 occurrences. The first occurrence is `reserved_on`; ' +
      "its wall time in the location's zone is kept on every date, across DST changes.",
  },
);
export type RecurrenceBody = Static<typeof RecurrenceBody>;

const { collect_payment: _notForSeries, ...bookingFields } = CreateBookingBody.properties;

/** POST /series: a booking's create body (its first occurrence) and the rule. */
export const CreateSeriesBody = Type.Object({ ...bookingFields, recurrence: RecurrenceBody });
export type CreateSeriesBody = Static<typeof CreateSeriesBody>;

export const SeriesParams = Type.Object({ seriesUuid: Type.String({ format: 'uuid' }) });

const ScopeFields = {
  scope: Type.Enum(SERIES_SCOPES, {
    description:
      'this: only `booking_uuid`; following: it and the later occurrences; all: every occurrence not yet ' +
      'completed or canceled (past ones included)',
  }),
  booking_uuid: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'The occurrence the scope starts at; required unless scope is all',
    }),
  ),
};

export const SeriesCancelBody = Type.Object({
  ...ScopeFields,
  cancel_reason: Type.Optional(Nullable(Type.Enum(CANCEL_REASONS))),
});
export type SeriesCancelBody = Static<typeof SeriesCancelBody>;

export const SeriesChangeBody = Type.Object({
  ...ScopeFields,
  time: Type.Optional(
    Type.String({
      pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
      description:
        "A new wall time 'HH:MM' for each occurrence in scope, on its own date, in the location's zone",
    }),
  ),
  staffer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  service_uuids: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 10 })),
});
export type SeriesChangeBody = Static<typeof SeriesChangeBody>;

const FreeTimeJson = Type.Object({ start_time: IsoInstant, start_time_local: Type.String() });

export const OccurrenceResultJson = Type.Object({
  date: Type.String({ description: "The local date in the location's zone" }),
  start_time: IsoInstant,
  start_time_local: Type.String(),
  result: Type.Enum(['booked', 'conflict', 'not_booked'], {
    description:
      'booked: made (or changed); conflict: the time cannot be booked (`reason`, and `nearest_free_times` that ' +
      'date); not_booked: free, but left out because another occurrence conflicted (all_or_nothing)',
  }),
  booking_uuid: Nullable(Uuid),
  reason: Nullable(Type.Enum(['taken', 'not_on_grid', 'too_soon', 'beyond_horizon'])),
  nearest_free_times: Type.Array(FreeTimeJson, {
    description: 'For a conflict: up to 6 free starts nearest to the asked time on that date',
  }),
});

export const SeriesOccurrenceJson = Type.Object({
  booking_uuid: Uuid,
  date: Type.String(),
  start_time: IsoInstant,
  start_time_local: Type.String(),
  end_time: IsoInstant,
  staffer_uuid: Uuid,
  status: Type.Object({ name: Type.String(), type: Type.String() }),
  is_canceled: Type.Boolean(),
  is_completed: Type.Boolean(),
});

export const SeriesJson = Type.Object({
  uuid: Uuid,
  location_uuid: Uuid,
  customer_uuid: Uuid,
  timezone: Type.String(),
  recurrence: Type.Object({
    frequency: Type.Enum(['daily', 'weekly', 'monthly']),
    interval: Type.Integer(),
    weekdays: Type.Array(Type.Enum(WEEKDAYS)),
    until: Nullable(Type.String()),
    count: Nullable(Type.Integer()),
    first_date: Type.String(),
    time: Type.String({ description: "The wall time 'HH:MM' the series was made at" }),
  }),
  mode: Type.Enum(SERIES_MODES),
  is_canceled: Type.Boolean(),
  occurrences: Type.Array(SeriesOccurrenceJson),
  created_at: IsoInstant,
  updated_at: IsoInstant,
  canceled_at: Nullable(IsoInstant),
});

/** The answer of a series create or change: the series, and what happened to each occurrence asked. */
export const SeriesAnswerJson = Type.Object({
  data: SeriesJson,
  results: Type.Array(OccurrenceResultJson),
});

/** A 409 of a series create or change: nothing written; each occurrence's verdict. */
export const SeriesConflictJson = Type.Object({
  message: Type.String(),
  code: Type.Literal('series_conflict'),
  results: Type.Array(OccurrenceResultJson),
});
