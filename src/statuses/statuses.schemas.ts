import { Type } from 'typebox';

/** DESIGN §3 "Status", as answered. */
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
