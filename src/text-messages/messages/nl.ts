import type en from './en.js';

export default {
  confirmed: '{workspace}: {what} op {when}, {location} is geboekt. Beheren: {link}',
  rescheduled: '{workspace}: {what} verplaatst naar {when}, {location}. Beheren: {link}',
  canceled: '{workspace}: {what} op {when} is geannuleerd. {link}',
  reminder: '{workspace}: herinnering, {what} op {when}, {location}. Antwoord C om te bevestigen. {link}',
  test: '{workspace}: een test-sms. Lees je dit, dan bereiken sms’jes je klanten.',
  waitlist_offer: '{workspace}: {what} op {when} is tot {until} vrij voor u. Boeken: {link}',
  stop_footer: 'STOP om af te melden',
  reply_confirmed: '{workspace}: bedankt, {when} is bevestigd.',
  reply_canceled: '{workspace}: je boeking op {when} is geannuleerd.',
  reply_cancel_refused:
    '{workspace}: deze boeking kan niet meer per sms worden geannuleerd. Neem contact op: {contact}',
  reply_no_booking: '{workspace}: er is geen komende boeking voor dit nummer.',
  reply_stopped: '{workspace}: je krijgt geen sms’jes meer. Antwoord START om ze weer te krijgen.',
  reply_started: '{workspace}: je krijgt weer sms’jes. Antwoord STOP om af te melden.',
} satisfies Record<keyof typeof en, string>;
