import { Type } from 'typebox';
import { Nullable } from '../http/nullable.js';
import { PaginationQuery } from '../http/pagination.js';

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

// Presence is checked by the service, together with the workspace's booking form, so that one
// 422 names every missing field; the schema checks types and formats.
export const CreateBookingBody = Type.Object({
  reserved_on: Type.Optional(Type.String({ description: 'UTC ISO 8601, e.g. 2026-09-10T12:00:00Z' })),
  location_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  service_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  staffer_uuid: Type.Optional(
    Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'Required unless the workspace assigns staffers automatically',
    }),
  ),
  customer_phone: Type.Optional(
    Type.String({ maxLength: 40, description: 'International format, e.g. +4915112345678' }),
  ),
  customer_first_name: Type.Optional(Type.String({ maxLength: 200 })),
  customer_last_name: Type.Optional(Type.String({ maxLength: 200 })),
  customer_email: Type.Optional(Type.String({ maxLength: 320 })),
  booking_comment: Type.Optional(Type.String({ maxLength: 5000 })),
  // null stays null (not sent) rather than being coerced to false, so a form that requires the
  // field refuses it.
  booking_callback: Type.Optional(Nullable(Type.Boolean())),
  source: Type.Optional(Type.String({ maxLength: 100, description: "Origin of the booking; default 'api'" })),
});

export const RescheduleBody = Type.Object({
  reserved_on: Type.String({ description: 'UTC ISO 8601 date-time' }),
});
export const StatusBody = Type.Object({ status_uuid: Type.String({ format: 'uuid' }) });
export const PublicNoteBody = Type.Object({ value: Type.String({ minLength: 1, maxLength: 5000 }) });
export const StafferBody = Type.Object({ staffer_uuid: Type.String({ format: 'uuid' }) });
export const ServicesBody = Type.Object({
  service_uuids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 20 }),
});
export const CompleteBody = Type.Object({
  account_uuid: Type.String({ format: 'uuid' }),
  paid_amount: Type.Integer({ minimum: 0, description: 'Minor units of the workspace currency' }),
});
export const CancelBody = Type.Object({
  cancel_reason: Type.Optional(Type.Union([Type.Enum(CANCEL_REASONS), Type.Null()])),
});

export const ListBookingsQuery = Type.Object({
  ...PaginationQuery.properties,
  location_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  staffer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  customer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  status_type: Type.Optional(Type.Enum(['new', 'confirmed', 'custom', 'completed', 'canceled'])),
  reserved_on_from: Type.Optional(Type.String({ format: 'date-time' })),
  reserved_on_to: Type.Optional(Type.String({ format: 'date-time' })),
  updated_since: Type.Optional(Type.String({ format: 'date-time' })),
});
