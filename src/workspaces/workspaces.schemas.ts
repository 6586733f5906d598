import { type Static, Type } from 'typebox';
import { Nullable } from '../platform/http/nullable.js';
import { Uuid } from '../platform/http/responses.js';
import {
  BOOKING_FORM_FIELDS,
  BOOKING_FORM_MODES,
  MAX_EMBED_ORIGINS,
  NAME_MAX_LENGTH,
  SETTINGS_LIMITS,
  STAFFER_SELECTIONS,
} from './workspace-settings.rules.js';

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
  customer_retention_months: Nullable(
    Type.Integer({
      description:
        'Customers with no booking for this many months are erased (docs/customer-data.md); null: never',
    }),
  ),
  contacts: Type.Object({
    phone: Nullable(Type.String({ examples: ['+4930123456'] })),
    email: Nullable(Type.String()),
  }),
  created_at: Type.String({ description: 'ISO 8601 instant' }),
  updated_at: Type.String({ description: 'ISO 8601 instant' }),
});

/** PATCH /workspace: the settings a business may change (the slug is not among them). */
const BookingFormMode = Type.Enum([...BOOKING_FORM_MODES]);

export const WorkspaceSettingsBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH })),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217', examples: ['EUR'] })),
  locale: Type.Optional(Type.String({ description: 'BCP 47 tag, e.g. de-DE', examples: ['en-US'] })),
  booking_form: Type.Optional(
    Type.Object(
      Object.fromEntries(BOOKING_FORM_FIELDS.map((field) => [field, Type.Optional(BookingFormMode)])),
      { additionalProperties: false, description: 'Only the fields sent change.' },
    ),
  ),
  staffer_selection: Type.Optional(Type.Enum([...STAFFER_SELECTIONS])),
  slot_step_minutes: Type.Optional(
    Type.Integer({ minimum: 5, maximum: 720, description: 'A divisor of 1440 (5, 10, 15, 20, 30, 60...)' }),
  ),
  min_notice_minutes: Type.Optional(
    Type.Integer({
      minimum: SETTINGS_LIMITS.min_notice_minutes.min,
      maximum: SETTINGS_LIMITS.min_notice_minutes.max,
    }),
  ),
  horizon_days: Type.Optional(
    Type.Integer({ minimum: SETTINGS_LIMITS.horizon_days.min, maximum: SETTINGS_LIMITS.horizon_days.max }),
  ),
  manage_cutoff_minutes: Type.Optional(
    Type.Integer({
      minimum: SETTINGS_LIMITS.manage_cutoff_minutes.min,
      maximum: SETTINGS_LIMITS.manage_cutoff_minutes.max,
      description:
        'Customers may cancel or reschedule through their manage link until this long before the start',
    }),
  ),
  embed_origins: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: MAX_EMBED_ORIGINS,
      description:
        'Origins (https://host[:port]) that may embed the booking page; empty = it cannot be framed',
    }),
  ),
  customer_retention_months: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: SETTINGS_LIMITS.customer_retention_months.min,
        maximum: SETTINGS_LIMITS.customer_retention_months.max,
        description: 'Erase customers with no booking for this many months; null turns it off',
      }),
    ),
  ),
  country_iso: Type.Optional(
    Nullable(Type.String({ maxLength: 2, description: 'ISO 3166-1 alpha-2, e.g. DE; null or "" clears' })),
  ),
  contacts: Type.Optional(
    Type.Object(
      {
        phone: Type.Optional(Nullable(Type.String({ maxLength: 40, description: 'International format' }))),
        email: Type.Optional(Nullable(Type.String({ maxLength: 320 }))),
      },
      { additionalProperties: false, description: 'The business contacts; only the fields sent change.' },
    ),
  ),
});
export type WorkspaceSettings = Static<typeof WorkspaceSettingsBody>;
