/**
 * PATCH /workspace: the settings a business may change. The slug is not among them: it is the
 * key integrators send in the Workspace header and must survive a rename (SPEC "Authentication").
 */
import { sql } from 'kysely';
import { type Static, Type } from 'typebox';
import { normalizePhone } from '../customers/phone.js';
import type { FieldErrors } from '../errors.js';
import type { BookingForm } from '../platform/db/schema.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { Nullable } from '../platform/http/nullable.js';
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
export const MAX_EMBED_ORIGINS = 20;

/**
 * An origin that may frame the booking page, exactly as browsers send it: `https://host[:port]`
 * (no path, no trailing slash, lowercase host, no default port). Plain http is allowed only for
 * localhost and 127.0.0.1, which browsers treat as secure (development and tests).
 */
export function isEmbedOrigin(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return false;
  return url.origin === value;
}
const LIMITS = {
  min_notice_minutes: { min: 0, max: 525_600, unit: 'minutes (a year)' },
  manage_cutoff_minutes: { min: 0, max: 525_600, unit: 'minutes (a year)' },
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
  manage_cutoff_minutes: Type.Optional(
    Type.Integer({
      minimum: LIMITS.manage_cutoff_minutes.min,
      maximum: LIMITS.manage_cutoff_minutes.max,
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

let regions: Intl.DisplayNames | undefined;
/** A two-letter region code Intl knows by name ('ZZ' and made-up codes are not). */
function isCountry(code: string): boolean {
  if (!/^[A-Za-z]{2}$/.test(code)) return false;
  regions ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const upper = code.toUpperCase();
  return upper !== 'ZZ' && regions.of(upper) !== undefined;
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
  if (Array.isArray(body.embed_origins)) {
    body.embed_origins.forEach((origin, index) => {
      if (typeof origin === 'string' && !isEmbedOrigin(origin)) {
        errors[`embed_origins.${index}`] = [
          'Each embed origin must be exactly https://host or https://host:port (no path, no trailing slash).',
        ];
      }
    });
  }
  const { country_iso, contacts } = body;
  if (typeof country_iso === 'string' && country_iso !== '' && !isCountry(country_iso)) {
    errors.country_iso = ['The country_iso must be an ISO 3166-1 alpha-2 code such as DE or US.'];
  }
  if (typeof contacts === 'object' && contacts !== null) {
    const { phone, email } = contacts as Record<string, unknown>;
    if (typeof phone === 'string' && phone.trim() !== '' && normalizePhone(phone) === undefined) {
      errors['contacts.phone'] = ['The contacts.phone must be a valid phone number, e.g. +4930123456.'];
    }
    if (
      typeof email === 'string' &&
      email.trim() !== '' &&
      !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())
    ) {
      errors['contacts.email'] = ['The contacts.email must be a valid email address.'];
    }
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
  uow: UnitOfWork,
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
    ...(settings.manage_cutoff_minutes !== undefined
      ? { manage_cutoff_minutes: settings.manage_cutoff_minutes }
      : {}),
    ...(settings.embed_origins !== undefined
      ? { embed_origins: JSON.stringify([...new Set(settings.embed_origins)]) }
      : {}),
    ...(settings.country_iso !== undefined
      ? { country_iso: (settings.country_iso ?? '').toUpperCase() }
      : {}),
    ...(settings.contacts?.phone !== undefined
      ? { contact_phone: normalizePhone(settings.contacts.phone ?? '') ?? '' }
      : {}),
    ...(settings.contacts?.email !== undefined
      ? { contact_email: (settings.contacts.email ?? '').trim() }
      : {}),
  };
  if (Object.keys(changes).length === 0) {
    return uow.db
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', workspaceId)
      .executeTakeFirstOrThrow();
  }
  // Slot step, notice and horizon shape every cached slot answer: the unit of work invalidates them.
  return uow.run(workspaceId, (tx) =>
    tx
      .updateTable('workspaces')
      .set({ ...changes, updated_at: sql`now()` })
      .where('id', '=', workspaceId)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}
