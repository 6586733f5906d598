import { Type } from 'typebox';
import { Nullable } from '../platform/http/nullable.js';
import { Uuid } from '../platform/http/responses.js';
import { BOOKING_FORM_FIELDS, BOOKING_FORM_MODES, STAFFER_SELECTIONS } from './settings.js';

export const PingJson = Type.Object({
  ping: Type.Literal('pong'),
  version: Type.String({ description: 'Release version', examples: ['v0.1.0'] }),
});

/** The workspace as GET /workspace shows it. */
export const WorkspaceJson = Type.Object({
  uuid: Uuid,
  slug: Type.String(),
  name: Type.String(),
  currency: Type.String({ examples: ['EUR'] }),
  locale: Type.String({ examples: ['de-DE'] }),
  booking_form: Type.Object(
    Object.fromEntries(BOOKING_FORM_FIELDS.map((field) => [field, Type.Enum([...BOOKING_FORM_MODES])])),
  ),
  staffer_selection: Type.Enum([...STAFFER_SELECTIONS]),
  slot_step_minutes: Type.Integer(),
  min_notice_minutes: Type.Integer(),
  horizon_days: Type.Integer(),
  manage_cutoff_minutes: Type.Integer({
    description: 'How long before the start a customer may still cancel or reschedule on the manage link',
  }),
  embed_origins: Type.Array(Type.String(), {
    description: 'Origins (https://host[:port]) allowed to embed the booking page in a frame',
  }),
  country_iso: Nullable(
    Type.String({ description: 'ISO 3166-1 alpha-2; null while unset', examples: ['DE'] }),
  ),
  contacts: Type.Object({
    phone: Nullable(Type.String({ examples: ['+4930123456'] })),
    email: Nullable(Type.String()),
  }),
  created_at: Type.String({ description: 'ISO 8601 instant' }),
  updated_at: Type.String({ description: 'ISO 8601 instant' }),
});
