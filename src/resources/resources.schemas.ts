import { type Static, Type } from 'typebox';

export const ResourceParams = Type.Object({ resourceUuid: Type.String({ format: 'uuid' }) });

const ResourceType = Type.String({
  pattern: '^[a-z][a-z0-9_-]{0,39}$',
  description:
    'What kind of unit it is (room, chair, equipment, court, ...): lowercase, a service asks for units of a type',
  examples: ['room'],
});

export const ResourceCreateBody = Type.Object({
  location_uuid: Type.String({ format: 'uuid', description: 'The live location the unit belongs to' }),
  type: ResourceType,
  name: Type.String({ minLength: 1, maxLength: 255 }),
  capacity: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, description: 'How many people it holds; default 1' }),
  ),
});
export type ResourceCreateBody = Static<typeof ResourceCreateBody>;

/** The location of a unit does not change: archive it and make another. */
export const ResourceUpdateBody = Type.Partial(Type.Omit(ResourceCreateBody, ['location_uuid']));
export type ResourceUpdateBody = Static<typeof ResourceUpdateBody>;

export const ResourceJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  location_uuid: Type.String({ format: 'uuid' }),
  type: Type.String(),
  name: Type.String(),
  capacity: Type.Integer(),
});

/** One requirement of a service, as sent and answered (docs/resources.md). */
export const ResourceRequirementJson = Type.Object({
  type: ResourceType,
  units: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 20, description: 'How many units of the type; default 1' }),
  ),
  resource_uuid: Type.Optional(
    Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'One named unit of the type (then units is 1); null or absent = any free units',
    }),
  ),
});
export type ResourceRequirementBody = Static<typeof ResourceRequirementJson>;

/** A unit a booking holds, as booking reads and webhook bodies show it. */
export const BookingResourceJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  type: Type.String(),
  name: Type.String(),
});
