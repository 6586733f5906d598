import type en from './en.js';

export default {
  confirmed: '{workspace}: {what} am {when}, {location} ist gebucht. Verwalten: {link}',
  rescheduled: '{workspace}: {what} verschoben auf {when}, {location}. Verwalten: {link}',
  canceled: '{workspace}: {what} am {when} ist storniert. {link}',
  reminder: '{workspace}: Erinnerung, {what} am {when}, {location}. Antworte C zum Bestätigen. {link}',
  test: '{workspace}: eine Test-SMS. Wenn du sie liest, erreichen SMS deine Kunden.',
  waitlist_offer: '{workspace}: {what} am {when} ist bis {until} für Sie frei. Buchen: {link}',
  stop_footer: 'STOP zum Abmelden',
  reply_confirmed: '{workspace}: danke, {when} ist bestätigt.',
  reply_canceled: '{workspace}: deine Buchung am {when} ist storniert.',
  reply_cancel_refused:
    '{workspace}: diese Buchung kann nicht mehr per SMS storniert werden. Bitte kontaktiere uns: {contact}',
  reply_no_booking: '{workspace}: für diese Nummer gibt es keine kommende Buchung.',
  reply_stopped: '{workspace}: du bekommst keine SMS mehr. Antworte START, um sie wieder zu bekommen.',
  reply_started: '{workspace}: du bekommst wieder SMS. Antworte STOP zum Abmelden.',
} satisfies Record<keyof typeof en, string>;
