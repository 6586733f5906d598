import { Type } from 'typebox';

/** The longest status name (the schema and the rule check both say it). */
export const NAME_MAX_LENGTH = 100;

/** A booking status, as answered. */
export const StatusJson = Type.Object({
  uuid: Type.String({ format: 'uuid' }),
  name: Type.String(),
  type: Type.Enum(['new', 'confirmed', 'custom', 'completed', 'canceled']),
  color: Type.String({ examples: ['#4caf50'] }),
  is_default: Type.Boolean(),
  is_final: Type.Boolean({
    description: 'completed and canceled: reached only through /status/complete and /status/cancel',
  }),
});

const fields = {
  name: Type.String({ maxLength: NAME_MAX_LENGTH }),
  color: Type.String({ pattern: '^#[0-9a-fA-F]{6}$', examples: ['#4caf50'] }),
  is_default: Type.Boolean({ description: 'true moves the default here; a final status cannot be it' }),
};
/** POST /bookings/statuses (and the panel's new-status form). */
export const CreateStatusBody = Type.Object({
  name: fields.name,
  color: Type.Optional(fields.color),
  is_default: Type.Optional(fields.is_default),
});
/** PATCH /bookings/statuses/{uuid} (and the panel's status form). */
export const ChangeStatusBody = Type.Object({
  name: Type.Optional(fields.name),
  color: Type.Optional(fields.color),
  is_default: Type.Optional(fields.is_default),
});
