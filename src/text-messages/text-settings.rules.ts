import type { FieldErrors } from '../errors.js';
import type { TextProviderName } from '../platform/db/schema.js';

/**
 * A workspace's text message settings, kept as jsonb in `workspaces.text_settings` and always read
 * through `textSettingsOf`, which fills in the defaults. Credentials are not here: they are sealed
 * into `workspaces.text_credentials` (src/platform/secrets.ts). Pure: no clock, no database.
 */

export const TEXT_PROVIDERS = ['none', 'twilio', 'gateway'] as const satisfies readonly TextProviderName[];

/** The customer texts a workspace can send. */
export const CUSTOMER_TEXTS = ['confirmed', 'rescheduled', 'canceled', 'reminder'] as const;
export type CustomerText = (typeof CUSTOMER_TEXTS)[number];

export const MAX_TEXT_REMINDERS = 2;
export const MAX_TEXT_REMINDER_MINUTES = 30 * 1440;

export interface TextSettings {
  /** Off: no text is queued at all (the booking page asks no consent). */
  enabled: boolean;
  provider: TextProviderName;
  customerTexts: CustomerText[];
  /** Minutes before the start, distinct, largest first: the texts' own schedule, beside the emails'. */
  reminderMinutes: number[];
  /** WhatsApp instead of SMS (Twilio's WhatsApp sender; the gateway is told the channel). */
  whatsapp: boolean;
  /** The sender: a number in E.164, a Twilio messaging service (MG…), or an alphanumeric sender ID. */
  sender: string;
  /** Twilio's Account SID (not a secret: the auth token is). */
  twilioAccountSid: string;
  /** The generic gateway's URL, which receives one signed POST per message. */
  gatewayUrl: string;
  /** The booking page's consent box: required to book, or optional. */
  consent: 'required' | 'optional';
}

/** The sealed part: what a provider needs that must never be shown or logged. */
export interface TextCredentials {
  /** Twilio's auth token. */
  twilioAuthToken?: string;
  /** The gateway's Standard Webhooks secret (whsec_…), both ways: our POSTs and its callbacks. */
  gatewaySecret?: string;
}

export const DEFAULT_TEXT_SETTINGS: TextSettings = {
  enabled: false,
  provider: 'none',
  customerTexts: ['confirmed', 'rescheduled', 'canceled', 'reminder'],
  reminderMinutes: [1440],
  whatsapp: false,
  sender: '',
  twilioAccountSid: '',
  gatewayUrl: '',
  consent: 'optional',
};

const isProvider = (value: unknown): value is TextProviderName =>
  (TEXT_PROVIDERS as readonly unknown[]).includes(value);

function normalizeReminders(minutes: number[]): number[] {
  return [...new Set(minutes.filter((m) => Number.isInteger(m) && m >= 1 && m <= MAX_TEXT_REMINDER_MINUTES))]
    .sort((a, b) => b - a)
    .slice(0, MAX_TEXT_REMINDERS);
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The stored settings → the settings in force; anything unreadable falls back to the default. */
export function textSettingsOf(stored: Record<string, unknown> | null | undefined): TextSettings {
  const raw = stored ?? {};
  return {
    enabled: raw.enabled === true,
    provider: isProvider(raw.provider) ? raw.provider : 'none',
    customerTexts: Array.isArray(raw.customer_texts)
      ? CUSTOMER_TEXTS.filter((kind) => (raw.customer_texts as unknown[]).includes(kind))
      : DEFAULT_TEXT_SETTINGS.customerTexts,
    reminderMinutes: Array.isArray(raw.reminder_minutes)
      ? normalizeReminders(raw.reminder_minutes.filter((m): m is number => typeof m === 'number'))
      : DEFAULT_TEXT_SETTINGS.reminderMinutes,
    whatsapp: raw.whatsapp === true,
    sender: text(raw.sender),
    twilioAccountSid: text(raw.twilio_account_sid),
    gatewayUrl: text(raw.gateway_url),
    consent: raw.consent === 'required' ? 'required' : 'optional',
  };
}

export function storedTextSettings(settings: TextSettings): Record<string, unknown> {
  return {
    enabled: settings.enabled,
    provider: settings.provider,
    customer_texts: settings.customerTexts,
    reminder_minutes: settings.reminderMinutes,
    whatsapp: settings.whatsapp,
    sender: settings.sender,
    twilio_account_sid: settings.twilioAccountSid,
    gateway_url: settings.gatewayUrl,
    consent: settings.consent,
  };
}

export interface TextSettingsInput {
  enabled: boolean;
  provider: string;
  customerTexts: string[];
  reminderHours: string[];
  whatsapp: boolean;
  sender: string;
  twilioAccountSid: string;
  /** Empty: keep the saved one. */
  twilioAuthToken: string;
  gatewayUrl: string;
  /** Empty: keep the saved one. */
  gatewaySecret: string;
  consent: string;
}

const E164 = /^\+[1-9]\d{6,14}$/;
/** An alphanumeric sender ID: 1-11 letters, digits and spaces, at least one letter. */
const ALPHA_SENDER = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

/**
 * The panel form → settings and the credentials typed (empty ones: keep what is saved), or the
 * field errors. `saved` says which credentials exist already, so a provider without its secret is
 * refused. The gateway URL's SSRF check needs DNS: the service does it.
 */
export function checkTextSettings(
  input: TextSettingsInput,
  saved: { twilioAuthToken: boolean; gatewaySecret: boolean },
): { settings?: TextSettings; credentials: TextCredentials; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const credentials: TextCredentials = {};
  const provider = input.provider.trim();
  if (!isProvider(provider)) errors.provider = ['Choose one of the listed providers.'];
  if (input.customerTexts.some((kind) => !(CUSTOMER_TEXTS as readonly string[]).includes(kind)))
    errors.customer_texts = ['Choose among the listed texts.'];
  const minutes: number[] = [];
  const typed = input.reminderHours.map((value) => value.trim()).filter((value) => value !== '');
  if (typed.length > MAX_TEXT_REMINDERS) errors.reminder_hours = [`At most ${MAX_TEXT_REMINDERS} reminders.`];
  for (const value of typed) {
    const hours = Number(value.replace(',', '.'));
    const m = Math.round(hours * 60);
    if (!/^\d+([.,]\d+)?$/.test(value) || m < 1 || m > MAX_TEXT_REMINDER_MINUTES)
      errors.reminder_hours = [
        `Each reminder is a number of hours before the start, more than 0 and at most ${MAX_TEXT_REMINDER_MINUTES / 60}.`,
      ];
    else minutes.push(m);
  }
  const sender = input.sender.trim();
  const sid = input.twilioAccountSid.trim();
  const token = input.twilioAuthToken.trim();
  const url = input.gatewayUrl.trim();
  const secret = input.gatewaySecret.trim();
  if (provider === 'twilio') {
    if (!/^AC[0-9a-f]{32}$/i.test(sid))
      errors.twilio_account_sid = ['An Account SID is AC and 32 hex digits.'];
    if (token === '' && !saved.twilioAuthToken) errors.twilio_auth_token = ['Enter the auth token.'];
    else if (token !== '' && !/^[0-9a-f]{32}$/i.test(token))
      errors.twilio_auth_token = ['An auth token is 32 hex digits.'];
    if (
      !(
        E164.test(sender) ||
        /^MG[0-9a-f]{32}$/i.test(sender) ||
        (!input.whatsapp && ALPHA_SENDER.test(sender))
      )
    )
      errors.sender = [
        'A number like +14155550100, a messaging service SID (MG…) or a sender ID of up to 11 letters.',
      ];
  }
  if (provider === 'gateway') {
    if (url === '') errors.gateway_url = ['Enter the gateway’s URL.'];
    if (secret === '' && !saved.gatewaySecret) errors.gateway_secret = ['Enter the signing secret.'];
    else if (secret !== '' && !/^whsec_[A-Za-z0-9+/=]{24,}$/.test(secret))
      errors.gateway_secret = ['A signing secret is whsec_ and at least 24 base64 characters.'];
    if (sender !== '' && !(E164.test(sender) || ALPHA_SENDER.test(sender)))
      errors.sender = ['A number like +14155550100 or a sender ID of up to 11 letters.'];
  }
  if (Object.keys(errors).length > 0) return { credentials, errors };
  if (token !== '') credentials.twilioAuthToken = token;
  if (secret !== '') credentials.gatewaySecret = secret;
  return {
    settings: {
      enabled: input.enabled,
      provider: provider as TextProviderName,
      customerTexts: CUSTOMER_TEXTS.filter((kind) => input.customerTexts.includes(kind)),
      reminderMinutes: normalizeReminders(minutes),
      whatsapp: input.whatsapp,
      sender,
      twilioAccountSid: sid,
      gatewayUrl: url,
      consent: input.consent === 'required' ? 'required' : 'optional',
    },
    credentials,
    errors,
  };
}
