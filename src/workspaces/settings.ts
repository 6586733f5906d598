/**
 * PATCH /workspace: the settings a business may change. The slug is not among them: it is the
 * key integrators send in the Workspace header and must survive a rename (SPEC "Authentication").
 */
import { sql } from 'kysely';
import { type Static, Type } from 'typebox';
import type { Db } from '../db/client.js';
import type { BookingForm } from '../db/schema.js';
import type { FieldErrors } from '../errors.js';
import type { WorkspaceRow } from './workspaces.repository.js';

export const BOOKING_FORM_FIELDS = [
  'customer_first_name',
  'customer_last_name',
  'customer_email',
  'booking_comment',
  'booking_callback',
] as const;
export const BOOKING_FORM_MODES = ['hidden', 'optional', 'required'] as const;
export const STAFFER_SELECTIONS = ['required', 'automatic'] as const;
/** Slot steps that tile a day exactly, so every day's grid starts at midnight the same way. */
export const SLOT_STEPS = Array.from({ length: 720 - 5 + 1 }, (_, i) => i + 5).filter((m) => 1440 % m === 0);
export const NAME_MAX_LENGTH = 200;
const LIMITS = {
  min_notice_minutes: { min: 0, max: 525_600, unit: 'minutes (a year)' },
  horizon_days: { min: 1, max: 730, unit: 'days' },
} as const;

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
    Type.Integer({ minimum: LIMITS.min_notice_minutes.min, maximum: LIMITS.min_notice_minutes.max }),
  ),
  horizon_days: Type.Optional(
    Type.Integer({ minimum: LIMITS.horizon_days.min, maximum: LIMITS.horizon_days.max }),
  ),
});
export type WorkspaceSettings = Static<typeof WorkspaceSettingsBody>;

let currencies: Set<string> | undefined;
/** ISO 4217 codes this runtime can format; a made-up 'ABC' would only print as "ABC 90.00". */
function isKnownCurrency(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}

/** A BCP 47 tag Intl both parses and has data for ('xx' parses but is no language Intl knows). */
export function canonicalLocale(tag: string): string | undefined {
  try {
    return Intl.NumberFormat.supportedLocalesOf(tag)[0];
  } catch {
    return undefined; // RangeError: not a well-formed tag ('en_US', '')
  }
}

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * The rules of each field whose type is right, with messages that say what is allowed. Fields of
 * the wrong type are left to the route schema, whose errors are merged with these.
 */
export function settingsRuleErrors(body: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  const { name, currency, locale, booking_form, staffer_selection, slot_step_minutes } = body;
  if (typeof name === 'string') {
    if (name.trim() === '') errors.name = ['The name field must not be empty.'];
    else if (name.trim().length > NAME_MAX_LENGTH) {
      errors.name = [`The name may not be longer than ${NAME_MAX_LENGTH} characters.`];
    }
  }
  if (typeof currency === 'string' && !(/^[A-Z]{3}$/.test(currency) && isKnownCurrency(currency))) {
    errors.currency = ['The currency must be an ISO 4217 code in capitals, such as EUR or USD.'];
  }
  if (typeof locale === 'string' && canonicalLocale(locale) === undefined) {
    errors.locale = ['The locale must be a BCP 47 language tag, such as en-US or de-DE.'];
  }
  if (typeof booking_form === 'object' && booking_form !== null && !Array.isArray(booking_form)) {
    for (const [field, mode] of Object.entries(booking_form)) {
      if ((BOOKING_FORM_FIELDS as readonly string[]).includes(field) && typeof mode === 'string') {
        if (!(BOOKING_FORM_MODES as readonly string[]).includes(mode)) {
          errors[`booking_form.${field}`] = [
            `The ${field} field must be one of: ${BOOKING_FORM_MODES.join(', ')}.`,
          ];
        }
      }
    }
  }
  if (
    typeof staffer_selection === 'string' &&
    !(STAFFER_SELECTIONS as readonly string[]).includes(staffer_selection)
  ) {
    errors.staffer_selection = [
      `The staffer_selection field must be one of: ${STAFFER_SELECTIONS.join(', ')}.`,
    ];
  }
  if (isInteger(slot_step_minutes) && !SLOT_STEPS.includes(slot_step_minutes)) {
    errors.slot_step_minutes = [
      'The slot_step_minutes must be between 5 and 720 and divide a day (1440) evenly, such as 15 or 30.',
    ];
  }
  for (const [field, limit] of Object.entries(LIMITS)) {
    const value = body[field];
    if (isInteger(value) && (value < limit.min || value > limit.max)) {
      errors[field] = [`The ${field} must be between ${limit.min} and ${limit.max} ${limit.unit}.`];
    }
  }
  return errors;
}

/**
 * Applies a valid settings body in one statement and returns the row as stored now. The booking
 * form merges inside the UPDATE (jsonb ||), so two PATCHes of different form fields both stick.
 */
export async function updateWorkspaceSettings(
  db: Db,
  workspaceId: string,
  settings: WorkspaceSettings,
): Promise<WorkspaceRow> {
  const bookingForm: Partial<BookingForm> = { ...settings.booking_form };
  const changes = {
    ...(settings.name !== undefined ? { name: settings.name.trim() } : {}),
    ...(settings.currency !== undefined ? { currency: settings.currency } : {}),
    ...(settings.locale !== undefined ? { locale: canonicalLocale(settings.locale) ?? settings.locale } : {}),
    ...(Object.keys(bookingForm).length > 0
      ? { booking_form: sql<string>`booking_form || ${JSON.stringify(bookingForm)}::jsonb` }
      : {}),
    ...(settings.staffer_selection !== undefined ? { staffer_selection: settings.staffer_selection } : {}),
    ...(settings.slot_step_minutes !== undefined ? { slot_step_minutes: settings.slot_step_minutes } : {}),
    ...(settings.min_notice_minutes !== undefined ? { min_notice_minutes: settings.min_notice_minutes } : {}),
    ...(settings.horizon_days !== undefined ? { horizon_days: settings.horizon_days } : {}),
  };
  if (Object.keys(changes).length === 0) {
    return db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirstOrThrow();
  }
  return db
    .updateTable('workspaces')
    .set({ ...changes, updated_at: sql`now()` })
    .where('id', '=', workspaceId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
