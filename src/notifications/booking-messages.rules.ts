import type { HistoryAction } from '../bookings/booking-history.repository.js';
import type { MailKind } from '../platform/db/schema.js';
import type { CustomerEmail, NotificationSettings, StaffEmail } from './notification-settings.rules.js';
import { reminderTimes } from './notification-settings.rules.js';

/**
 * Which emails one booking change makes, to customers and staff. Pure: the outbox dispatcher gives
 * it the change, the settings and the recipients, and queues what it answers in the transaction
 * that dispatches the change's event (booking-notifications.service.ts).
 */

/** A booking change, as the booking services name it (booking_history.action). */
export type BookingChange = HistoryAction;

const CUSTOMER_EMAIL_OF: Partial<Record<BookingChange, CustomerEmail & MailKind>> = {
  created: 'confirmed',
  rescheduled: 'rescheduled',
  canceled: 'canceled',
  completed: 'completed',
};

/** A new staffer hears of the booking as new; its time or services changing is a change. */
const STAFF_EMAIL_OF: Partial<Record<BookingChange, StaffEmail>> = {
  created: 'new',
  staffer_changed: 'new',
  rescheduled: 'changed',
  services_changed: 'changed',
  canceled: 'canceled',
};

/** Which staff email a change is, if any. */
export function staffEmailFor(change: BookingChange): StaffEmail | undefined {
  return STAFF_EMAIL_OF[change];
}

const STAFF_KIND: Record<StaffEmail, MailKind> = {
  new: 'staff_new',
  changed: 'staff_changed',
  canceled: 'staff_canceled',
};

export interface PlannedMessage {
  kind: MailKind;
  audience: 'customer' | 'staff';
  recipient: string;
  variant?: string;
  /** When it is due; reminders later, everything else at once. */
  dueAt: number;
  reminderMinutes?: number;
}

export interface PlanInput {
  change: BookingChange;
  settings: NotificationSettings;
  /** '' when the customer gave none: then no customer email at all. */
  customerEmail: string;
  /** The booking's staffer's address (its linked user's, else its own) and choices; null when none. */
  staff: { stafferId: string; email: string; wants: StaffEmail[] } | null;
  start: number;
  now: number;
}

export interface Plan {
  messages: PlannedMessage[];
  /**
   * Drop the booking's pending reminders: every change that sends events re-plans them (a
   * reschedule moves them, a staffer change updates what they say), and a cancel or completion
   * ends them.
   */
  dropReminders: boolean;
}

export function planBookingMessages(input: PlanInput): Plan {
  const { change, settings, customerEmail, staff, now } = input;
  if (change === 'note_added') return { messages: [], dropReminders: false };
  const messages: PlannedMessage[] = [];
  const customerKind = CUSTOMER_EMAIL_OF[change];
  if (customerEmail !== '' && customerKind && settings.customerEmails.includes(customerKind)) {
    messages.push({ kind: customerKind, audience: 'customer', recipient: customerEmail, dueAt: now });
  }
  const final = change === 'canceled' || change === 'completed';
  if (customerEmail !== '' && !final && settings.customerEmails.includes('reminder')) {
    for (const reminder of reminderTimes(input.start, settings.reminderMinutes, now)) {
      messages.push({
        kind: 'reminder',
        audience: 'customer',
        recipient: customerEmail,
        variant: `m${reminder.minutes}`,
        dueAt: reminder.at,
        reminderMinutes: reminder.minutes,
      });
    }
  }
  const staffEmail = staffEmailFor(change);
  if (staff && staffEmail && staff.wants.includes(staffEmail)) {
    messages.push({
      kind: STAFF_KIND[staffEmail],
      audience: 'staff',
      recipient: staff.email,
      variant: `s${staff.stafferId}`,
      dueAt: now,
    });
  }
  return { messages, dropReminders: change !== 'created' };
}
