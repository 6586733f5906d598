import { type Static, Type } from 'typebox';
import { Nullable } from '../http/nullable.js';

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
    Nullable(Type.String({ format: 'uri', maxLength: 2048, description: 'Image URL; null = none' })),
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
