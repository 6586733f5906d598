import { type Static, Type } from 'typebox';
import { Nullable } from '../platform/http/nullable.js';
import { DurationJson } from '../platform/http/responses.js';
import { ResourceRequirementJson } from '../resources/resources.schemas.js';

export const ServiceParams = Type.Object({ serviceUuid: Type.String({ format: 'uuid' }) });

export const ServiceCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  price: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1_000_000_000,
      description: 'Minor units of the workspace currency (9000 = 90.00 EUR); default 0',
    }),
  ),
  duration_minutes: Type.Integer({ minimum: 1, maximum: 1440 }),
  capacity: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'Places per slot; 1 (default) = individual' }),
  ),
  buffer_before_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 720 })),
  buffer_after_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 720 })),
  category: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 255,
        description: 'Category name, created when new; null or "" = no category',
      }),
    ),
  ),
  location_uuids: Type.Optional(
    Type.Array(Type.String({ format: 'uuid' }), {
      maxItems: 500,
      description: 'Live locations offering the service; on PATCH replaces the whole list',
    }),
  ),
  series_bookable: Type.Optional(
    Type.Boolean({
      description:
        'true: the booking page offers it as a series too ("Repeat every … weeks, N times", docs/series.md); ' +
        'default false. The API and the panel make a series of any service.',
    }),
  ),
  staffer_needed: Type.Optional(
    Type.Boolean({
      description:
        'false: a rental (a court, a sauna; docs/resources.md "Rentals"), booked with its resources and no ' +
        "staffer, in the location's opening hours; only with at least one resource and capacity 1. Default true.",
    }),
  ),
  resources: Type.Optional(
    Type.Array(ResourceRequirementJson, {
      maxItems: 10,
      description:
        'Units the service needs for its whole length, buffers included (docs/resources.md); ' +
        'on PATCH replaces the whole list; [] (default) = none',
    }),
  ),
});
export type ServiceCreateBody = Static<typeof ServiceCreateBody>;

export const ServiceUpdateBody = Type.Partial(ServiceCreateBody);
export type ServiceUpdateBody = Static<typeof ServiceUpdateBody>;

/** A service, as answered (plus buffers and the live locations that offer it). */
export const ServiceJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  description: Type.String(),
  category: Nullable(
    Type.Object({ uuid: Type.String({ format: 'uuid' }), name: Type.String(), order: Type.Integer() }),
  ),
  currency: Type.String({ examples: ['EUR'] }),
  price: Type.Integer({ description: 'Minor units' }),
  price_formatted: Type.String({ examples: ['€90.00'] }),
  duration: DurationJson,
  capacity: Type.Integer(),
  buffer_before: Type.Integer({ description: 'Minutes' }),
  buffer_after: Type.Integer({ description: 'Minutes' }),
  location_uuids: Type.Array(Type.String({ format: 'uuid' })),
  series_bookable: Type.Optional(
    Type.Literal(true, { description: 'Present when the booking page offers the service in series' }),
  ),
  staffer_needed: Type.Boolean({
    description: 'false: a rental, booked with its resources and no staffer (docs/resources.md "Rentals")',
  }),
  resources: Type.Array(
    Type.Object({
      type: Type.String(),
      units: Type.Integer(),
      resource_uuid: Nullable(Type.String({ format: 'uuid' })),
    }),
  ),
});
