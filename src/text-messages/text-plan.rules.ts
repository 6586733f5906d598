import type { HistoryAction } from '../bookings/booking-history.repository.js';
import type { TextKind } from '../platform/db/schema.js';
import { type QuietHours, reminderSendTime } from './quiet-hours.rules.js';
import type { CustomerText, TextSettings } from './text-settings.rules.js';

/**
 * Which texts one booking change makes. Pure: the outbox dispatcher gives it the change, the
 * settings and what it knows of the customer, and queues what it answers (text-queue.service.ts).
 */

const TEXT_OF: Partial<Record<HistoryAction, CustomerText & TextKind>> = {
  created: 'confirmed',
  rescheduled: 'rescheduled',
  canceled: 'canceled',
};

export const E164 = /^\+[1-9]\d{6,14}$/;

export interface TextPlanInput {
  change: HistoryAction;
  settings: TextSettings;
  /** The customer's phone as the booking has it (E.164 when valid). */
  phone: string;
  /** The booking page's consent: false = declined; null = not asked (made in the panel, the API). */
  consent: boolean | null;
  start: number;
  now: number;
  zone: string;
  quiet: QuietHours;
}

export interface PlannedText {
  kind: TextKind;
  /** Distinguishes two texts of one kind and change (reminders: `m<minutes>`). */
  variant?: string;
  dueAt: number;
}

export interface TextPlan {
  texts: PlannedText[];
  /** Drop the booking's pending reminders (every change re-plans them; a cancel ends them). */
  dropReminders: boolean;
}

/**
 * No text unless the workspace sends texts, the number is a mobile-capable E.164 number and the
 * customer did not decline on the booking page. (Opt-outs are checked when the text is due, so a
 * STOP received after queuing still holds.) Confirmation, change and cancel go at once; reminders
 * at the texts' own offsets, moved out of the location's quiet hours.
 */
export function planBookingTexts(input: TextPlanInput): TextPlan {
  const { change, settings, now } = input;
  const dropReminders = change !== 'created' && change !== 'note_added';
  if (!settings.enabled || !E164.test(input.phone) || input.consent === false)
    return { texts: [], dropReminders };
  if (change === 'note_added') return { texts: [], dropReminders: false };
  const texts: PlannedText[] = [];
  const kind = TEXT_OF[change];
  if (kind && settings.customerTexts.includes(kind)) texts.push({ kind, dueAt: now });
  const final = change === 'canceled' || change === 'completed';
  if (!final && settings.customerTexts.includes('reminder')) {
    for (const minutes of settings.reminderMinutes) {
      const due = input.start - minutes * 60_000;
      if (due <= now || due >= input.start) continue;
      texts.push({
        kind: 'reminder',
        variant: `m${minutes}`,
        dueAt: reminderSendTime(due, input.start, now, input.zone, input.quiet),
      });
    }
  }
  return { texts, dropReminders };
}

/** The text's unique key: one per booking, kind, revision and variant. */
export function textKey(
  bookingId: string | null,
  kind: TextKind,
  revision: number,
  variant?: string,
): string {
  const base = `${bookingId ?? 'none'}.${kind}.r${revision}`;
  return variant ? `${base}.${variant}` : base;
}
