import { type Static, Type } from 'typebox';
import { Nullable } from '../platform/http/nullable.js';

export const CalendarConnectBody = Type.Object({
  server_url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description:
      'The CalDAV server address (https://cloud.example.com/, a principal or a calendar home URL); discovery finds the calendars. Must reach a public address.',
  }),
  username: Type.String({ minLength: 1, maxLength: 255 }),
  password: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description:
        'An app password. Stored sealed with the server key; never answered. Left out = keep the saved one (same server and user).',
    }),
  ),
  read_calendars: Type.Optional(
    Type.Array(Type.String({ maxLength: 2048 }), {
      maxItems: 50,
      description: 'URLs of the calendars whose events block the staffer; default: every calendar of events.',
    }),
  ),
  write_calendar: Type.Optional(
    Nullable(Type.String({ maxLength: 2048, description: 'Where bookings are written; null = none.' })),
  ),
  all_day_blocks: Type.Optional(
    Type.Boolean({ description: 'Whether all-day events block the whole day (default true).' }),
  ),
  show_titles: Type.Optional(
    Type.Boolean({
      description: 'Whether the panel shows event titles of busy times (default false: "Busy").',
    }),
  ),
  customer_name_in_events: Type.Optional(
    Type.Boolean({
      description: "Whether events written for bookings name the customer's first name (default false).",
    }),
  ),
});
export type CalendarConnectBody = Static<typeof CalendarConnectBody>;

export const CalendarTestBody = Type.Object({
  server_url: CalendarConnectBody.properties.server_url,
  username: CalendarConnectBody.properties.username,
  password: CalendarConnectBody.properties.password,
});
export type CalendarTestBody = Static<typeof CalendarTestBody>;

export const RemoteCalendarJson = Type.Object({
  url: Type.String(),
  name: Type.String(),
  color: Nullable(Type.String()),
  events: Type.Boolean({ description: 'Whether the calendar holds events (not only tasks).' }),
});

export const CalendarConnectionJson = Type.Object({
  staffer_uuid: Type.String({ format: 'uuid' }),
  provider: Type.Literal('caldav'),
  server_url: Type.String(),
  username: Type.String(),
  read_calendars: Type.Array(Type.String()),
  write_calendar: Nullable(Type.String()),
  all_day_blocks: Type.Boolean(),
  show_titles: Type.Boolean(),
  customer_name_in_events: Type.Boolean(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('failing'), Type.Literal('refused')], {
    description:
      'ok; failing (unreachable: last known busy times kept, retried with backoff); refused (401/403: enter the app password again)',
  }),
  last_error: Nullable(Type.String()),
  last_sync_at: Nullable(Type.String({ format: 'date-time' })),
  last_success_at: Nullable(Type.String({ format: 'date-time' })),
  next_sync_at: Type.String({ format: 'date-time' }),
});

export const CalendarConnectAnswer = Type.Object({
  data: CalendarConnectionJson,
  calendars: Type.Array(RemoteCalendarJson),
});

export const CalendarSyncAnswer = Type.Object({
  data: CalendarConnectionJson,
  sync: Type.Object({
    ok: Type.Boolean(),
    changed: Type.Integer({ description: 'Calendar objects read anew' }),
    removed: Type.Integer({ description: 'Calendar objects gone' }),
    error: Nullable(Type.String()),
  }),
});

export const BusyTimesQuery = Type.Object({
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
});
export type BusyTimesQuery = Static<typeof BusyTimesQuery>;

export const BusyTimeJson = Type.Object({
  start_time: Type.String({ format: 'date-time' }),
  end_time: Type.String({ format: 'date-time' }),
  all_day: Type.Boolean(),
  title: Nullable(
    Type.String({ description: 'The event title when the staffer shows titles; else null ("Busy").' }),
  ),
});
