/**
 * PATCH /workspace: the settings a business may change. The slug is not among them: it is the
 * key integrators send in the Workspace header and must survive a rename, as the public API promises.
 */
import { normalizePhone } from '../customers/phone.rules.js';
import type { FieldErrors } from '../errors.js';

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
/** The documented bounds of the numeric settings (OpenAPI and the 422 messages both use them). */
export const SETTINGS_LIMITS = {
  min_notice_minutes: { min: 0, max: 525_600, unit: 'minutes (a year)' },
  manage_cutoff_minutes: { min: 0, max: 525_600, unit: 'minutes (a year)' },
  horizon_days: { min: 1, max: 730, unit: 'days' },
  customer_retention_months: { min: 1, max: 240, unit: 'months' },
} as const;

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
  for (const [field, limit] of Object.entries(SETTINGS_LIMITS)) {
    const value = body[field];
    if (isInteger(value) && (value < limit.min || value > limit.max)) {
      errors[field] = [`The ${field} must be between ${limit.min} and ${limit.max} ${limit.unit}.`];
    }
  }
  return errors;
}
