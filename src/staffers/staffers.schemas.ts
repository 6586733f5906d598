import { type Static, Type } from 'typebox';
import { Nullable } from '../platform/http/nullable.js';

export const StafferParams = Type.Object({ stafferUuid: Type.String({ format: 'uuid' }) });

export const StafferAssignment = Type.Object({
  location_uuid: Type.String({ format: 'uuid' }),
  service_uuids: Type.Array(Type.String({ format: 'uuid' }), { maxItems: 500 }),
});

export const StafferCreateBody = Type.Object({
  first_name: Type.String({ minLength: 1, maxLength: 255 }),
  last_name: Type.Optional(Type.String({ maxLength: 255 })),
  position: Type.Optional(Type.String({ maxLength: 255 })),
  description: Type.Optional(Type.String({ maxLength: 5000 })),
  avatar: Type.Optional(
    Nullable(
      Type.String({ format: 'http-url', maxLength: 2048, description: 'http(s) image URL; null = none' }),
    ),
  ),
  services: Type.Optional(
    Type.Array(StafferAssignment, {
      maxItems: 200,
      description:
        'Which services the staffer provides where: each location live, each service live and ' +
        'offered at that location. On PATCH replaces the whole assignment.',
    }),
  ),
});
export type StafferCreateBody = Static<typeof StafferCreateBody>;

export const StafferUpdateBody = Type.Partial(StafferCreateBody);
export type StafferUpdateBody = Static<typeof StafferUpdateBody>;

/** A staffer, as answered (plus what the staffer provides where). */
export const StafferJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  first_name: Type.String(),
  last_name: Type.String(),
  position: Type.String(),
  description: Type.String(),
  avatar: Nullable(Type.String()),
  services: Type.Array(StafferAssignment),
});
