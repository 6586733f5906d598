import { Type } from 'typebox';
import { IsoInstant, Uuid } from '../platform/http/responses.js';

export const CustomerParams = Type.Object({ customerUuid: Type.String({ format: 'uuid' }) });

/** A customer, as answered (unique by E.164 phone within a workspace). */
export const CustomerJson = Type.Object({
  uuid: Uuid,
  phone: Type.String({ examples: ['+4915112345678'] }),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  created_at: IsoInstant,
  updated_at: IsoInstant,
});
