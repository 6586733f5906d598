import type { MailKind } from '../platform/db/schema.js';
import type { Lang } from '../platform/i18n.js';

/**
 * The emails' words in each language of the booking page (English and German). `what` is the
 * booked services, `when` the formatted start with its zone.
 */
export interface MailTexts {
  subject: Record<MailKind, (what: string, when: string, workspace: string) => string>;
  intro: Record<MailKind, string>;
  hello: (name: string) => string;
  helloPlain: string;
  when: string;
  what: string;
  with: string;
  where: string;
  customer: string;
  manage: string;
  reminderIn: (minutes: number) => string;
  attachment: string;
  footer: (workspace: string) => string;
}

function duration(lang: Lang, minutes: number): string {
  const days = minutes % 1440 === 0 ? minutes / 1440 : undefined;
  const hours = minutes % 60 === 0 ? minutes / 60 : undefined;
  if (lang === 'de') {
    if (days !== undefined) return days === 1 ? '1 Tag' : `${days} Tagen`;
    if (hours !== undefined) return hours === 1 ? '1 Stunde' : `${hours} Stunden`;
    return `${minutes} Minuten`;
  }
  if (days !== undefined) return days === 1 ? '1 day' : `${days} days`;
  if (hours !== undefined) return hours === 1 ? '1 hour' : `${hours} hours`;
  return `${minutes} minutes`;
}

const en: MailTexts = {
  subject: {
    confirmed: (what, when) => `Booking confirmed: ${what}, ${when}`,
    rescheduled: (what, when) => `Booking moved: ${what}, now ${when}`,
    canceled: (what, when) => `Booking canceled: ${what}, ${when}`,
    completed: (_what, _when, workspace) => `Thank you for your visit at ${workspace}`,
    reminder: (what, when) => `Reminder: ${what}, ${when}`,
    staff_new: (what, when) => `New booking: ${what}, ${when}`,
    staff_changed: (what, when) => `Booking changed: ${what}, ${when}`,
    staff_canceled: (what, when) => `Booking canceled: ${what}, ${when}`,
    test: (_what, _when, workspace) => `Test email from ${workspace}`,
  },
  intro: {
    confirmed: 'your booking is confirmed.',
    rescheduled: 'your booking has been moved to a new time.',
    canceled: 'your booking has been canceled.',
    completed: 'thank you for your visit. We hope to see you again.',
    reminder: 'a reminder of your booking.',
    staff_new: 'a booking was made for you.',
    staff_changed: 'one of your bookings has changed.',
    staff_canceled: 'one of your bookings has been canceled.',
    test: 'this is a test email from Settings → Notifications. If you can read it, emails reach their recipients.',
  },
  hello: (name) => `Hello ${name},`,
  helloPlain: 'Hello,',
  when: 'When',
  what: 'What',
  with: 'With',
  where: 'Where',
  customer: 'Customer',
  manage: 'See, change or cancel your booking',
  reminderIn: (minutes) => `It starts in ${duration('en', minutes)}.`,
  attachment: 'The attached calendar file (.ics) adds the booking to your calendar or updates it there.',
  footer: (workspace) => `${workspace}`,
};

const de: MailTexts = {
  subject: {
    confirmed: (what, when) => `Buchung bestätigt: ${what}, ${when}`,
    rescheduled: (what, when) => `Buchung verschoben: ${what}, neu ${when}`,
    canceled: (what, when) => `Buchung storniert: ${what}, ${when}`,
    completed: (_what, _when, workspace) => `Vielen Dank für Ihren Besuch bei ${workspace}`,
    reminder: (what, when) => `Erinnerung: ${what}, ${when}`,
    staff_new: (what, when) => `Neue Buchung: ${what}, ${when}`,
    staff_changed: (what, when) => `Buchung geändert: ${what}, ${when}`,
    staff_canceled: (what, when) => `Buchung storniert: ${what}, ${when}`,
    test: (_what, _when, workspace) => `Test-E-Mail von ${workspace}`,
  },
  intro: {
    confirmed: 'Ihre Buchung ist bestätigt.',
    rescheduled: 'Ihre Buchung wurde auf einen neuen Termin verschoben.',
    canceled: 'Ihre Buchung wurde storniert.',
    completed: 'vielen Dank für Ihren Besuch. Wir freuen uns auf Ihren nächsten.',
    reminder: 'wir erinnern Sie an Ihre Buchung.',
    staff_new: 'für Sie wurde eine Buchung angelegt.',
    staff_changed: 'eine Ihrer Buchungen wurde geändert.',
    staff_canceled: 'eine Ihrer Buchungen wurde storniert.',
    test: 'dies ist eine Test-E-Mail aus Einstellungen → Benachrichtigungen. Wenn Sie sie lesen, kommen E-Mails an.',
  },
  hello: (name) => `Hallo ${name},`,
  helloPlain: 'Hallo,',
  when: 'Wann',
  what: 'Was',
  with: 'Bei',
  where: 'Wo',
  customer: 'Kunde',
  manage: 'Buchung ansehen, ändern oder stornieren',
  reminderIn: (minutes) => `Sie beginnt in ${duration('de', minutes)}.`,
  attachment:
    'Die angehängte Kalenderdatei (.ics) trägt die Buchung in Ihren Kalender ein oder aktualisiert sie dort.',
  footer: (workspace) => `${workspace}`,
};

export const MAIL_TEXTS: Record<Lang, MailTexts> = { en, de };
