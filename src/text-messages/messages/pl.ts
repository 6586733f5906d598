import type en from './en.js';

export default {
  confirmed: '{workspace}: {what}, {when}, {location} zarezerwowano. Zarządzaj: {link}',
  rescheduled: '{workspace}: {what} przeniesiono na {when}, {location}. Zarządzaj: {link}',
  canceled: '{workspace}: {what}, {when} odwołano. {link}',
  reminder: '{workspace}: przypomnienie, {what}, {when}, {location}. Odpisz C, aby potwierdzić. {link}',
  test: '{workspace}: testowy SMS. Jeśli go czytasz, SMS-y docierają do klientów.',
  waitlist_offer: '{workspace}: {what} {when} czeka na Ciebie do {until}. Rezerwuj: {link}',
  stop_footer: 'STOP, aby się wypisać',
  reply_confirmed: '{workspace}: dziękujemy, {when} potwierdzono.',
  reply_canceled: '{workspace}: rezerwację na {when} odwołano.',
  reply_cancel_refused:
    '{workspace}: tej rezerwacji nie można już odwołać SMS-em. Skontaktuj się z nami: {contact}',
  reply_no_booking: '{workspace}: brak nadchodzącej rezerwacji dla tego numeru.',
  reply_stopped: '{workspace}: nie dostaniesz więcej SMS-ów. Odpisz START, aby znów je dostawać.',
  reply_started: '{workspace}: znów dostaniesz SMS-y. Odpisz STOP, aby się wypisać.',
} satisfies Record<keyof typeof en, string>;
