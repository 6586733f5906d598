import type { FieldErrors } from '../errors.js';

/**
 * A workspace's notification settings, kept as jsonb in
 * `workspaces.notification_settings` and always read through `settingsOf`, which fills in the
 * defaults for what the workspace never set. Pure: no clock, no database.
 */

/** The customer emails a workspace can send. `completed` is off unless switched on. */
export const CUSTOMER_EMAILS = ['confirmed', 'rescheduled', 'canceled', 'completed', 'reminder'] as const;
export type CustomerEmail = (typeof CUSTOMER_EMAILS)[number];

/** What a staffer (or the panel user linked to it) may choose to hear of. */
export const STAFF_EMAILS = ['new', 'changed', 'canceled'] as const;
export type StaffEmail = (typeof STAFF_EMAILS)[number];

/**
 * 0 to this many reminders, each between a minute and 30 days before the start (a reminder at the
 * start itself would always be too late: it is never sent once the booking has started).
 */
export const MAX_REMINDERS = 2;
export const MAX_REMINDER_MINUTES = 30 * 1440;

export interface NotificationSettings {
  customerEmails: CustomerEmail[];
  /** Minutes before the start, distinct, largest first. */
  reminderMinutes: number[];
  /** The From display name; the workspace's name when empty. */
  senderName: string;
  /** Reply-To; none when empty. */
  replyTo: string;
}

export const DEFAULT_SETTINGS: NotificationSettings = {
  customerEmails: ['confirmed', 'rescheduled', 'canceled', 'reminder'],
  reminderMinutes: [1440],
  senderName: '',
  replyTo: '',
};

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

/** A plain address (no display name, no list): what Reply-To and staffer emails accept. */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

const isCustomerEmail = (value: unknown): value is CustomerEmail =>
  (CUSTOMER_EMAILS as readonly unknown[]).includes(value);

/** The settings as stored (jsonb) → the settings in force; anything unreadable falls back to the default. */
export function settingsOf(stored: Record<string, unknown> | null | undefined): NotificationSettings {
  const raw = stored ?? {};
  const emails = Array.isArray(raw.customer_emails)
    ? CUSTOMER_EMAILS.filter((kind) => (raw.customer_emails as unknown[]).includes(kind))
    : DEFAULT_SETTINGS.customerEmails;
  const reminders = Array.isArray(raw.reminder_minutes)
    ? normalizeReminders(raw.reminder_minutes.filter((m): m is number => typeof m === 'number'))
    : DEFAULT_SETTINGS.reminderMinutes;
  return {
    customerEmails: emails,
    reminderMinutes: reminders,
    senderName: typeof raw.sender_name === 'string' ? raw.sender_name : '',
    replyTo: typeof raw.reply_to === 'string' && isEmailAddress(raw.reply_to) ? raw.reply_to : '',
  };
}

/** The stored form of settings (what `settingsOf` reads back unchanged). */
export function storedSettings(settings: NotificationSettings): Record<string, unknown> {
  return {
    customer_emails: settings.customerEmails,
    reminder_minutes: settings.reminderMinutes,
    sender_name: settings.senderName,
    reply_to: settings.replyTo,
  };
}

function normalizeReminders(minutes: number[]): number[] {
  return [...new Set(minutes.filter((m) => Number.isInteger(m) && m >= 1 && m <= MAX_REMINDER_MINUTES))]
    .sort((a, b) => b - a)
    .slice(0, MAX_REMINDERS);
}

export interface SettingsInput {
  customerEmails: string[];
  /** Each a number of hours before the start, as typed; empty strings are unused slots. */
  reminderHours: string[];
  senderName: string;
  replyTo: string;
}

/** The panel form → settings, or the field errors. Hours may have a fraction (0.5 = 30 min). */
export function checkSettings(input: SettingsInput): {
  settings?: NotificationSettings;
  errors: FieldErrors;
} {
  const errors: FieldErrors = {};
  const unknown = input.customerEmails.filter((kind) => !isCustomerEmail(kind));
  if (unknown.length > 0) errors.customer_emails = ['Choose among the listed emails.'];
  const minutes: number[] = [];
  const typed = input.reminderHours.map((value) => value.trim()).filter((value) => value !== '');
  if (typed.length > MAX_REMINDERS) errors.reminder_hours = [`At most ${MAX_REMINDERS} reminders.`];
  for (const value of typed) {
    const hours = Number(value.replace(',', '.'));
    const m = Math.round(hours * 60);
    if (!/^\d+([.,]\d+)?$/.test(value) || !Number.isFinite(hours) || m < 1 || m > MAX_REMINDER_MINUTES) {
      errors.reminder_hours = [
        `Each reminder is a number of hours before the start, more than 0 and at most ${MAX_REMINDER_MINUTES / 60}.`,
      ];
    } else {
      minutes.push(m);
    }
  }
  if (new Set(minutes).size !== minutes.length && !errors.reminder_hours)
    errors.reminder_hours = ['The two reminders must be at different times.'];
  const senderName = input.senderName.trim().replace(/\s+/g, ' ');
  if (senderName.length > 100) errors.sender_name = ['At most 100 characters.'];
  if (/[<>"\\]/.test(senderName)) errors.sender_name = ['Leave out < > " and \\.'];
  const replyTo = input.replyTo.trim().toLowerCase();
  if (replyTo !== '' && !isEmailAddress(replyTo))
    errors.reply_to = ['Enter one email address, like team@example.com.'];
  if (Object.keys(errors).length > 0) return { errors };
  return {
    settings: {
      customerEmails: CUSTOMER_EMAILS.filter((kind) => input.customerEmails.includes(kind)),
      reminderMinutes: normalizeReminders(minutes),
      senderName,
      replyTo,
    },
    errors,
  };
}

/**
 * The reminders of a booking starting at `start`: one per offset, at `start - offset`, leaving out
 * those whose time is not after `now` (the confirmation just sent says the same). Pure.
 */
export function reminderTimes(
  start: number,
  offsetsMinutes: number[],
  now: number,
): { minutes: number; at: number }[] {
  return offsetsMinutes
    .map((minutes) => ({ minutes, at: start - minutes * 60_000 }))
    .filter((reminder) => reminder.at > now && reminder.at < start);
}

/** The stored `booking_emails` of a staffer → the kinds in force (unknown entries ignored). */
export function staffEmailsOf(stored: unknown): StaffEmail[] {
  return Array.isArray(stored) ? STAFF_EMAILS.filter((kind) => stored.includes(kind)) : [...STAFF_EMAILS];
}
