import type en from './en.js';

export default {
  confirmed: '{workspace} : {what} le {when}, {location} est réservé. Gérer : {link}',
  rescheduled: '{workspace} : {what} déplacé au {when}, {location}. Gérer : {link}',
  canceled: '{workspace} : {what} le {when} est annulé. {link}',
  reminder: '{workspace} : rappel, {what} le {when}, {location}. Répondez C pour confirmer. {link}',
  test: '{workspace} : un SMS de test. Si vous le lisez, les SMS arrivent à vos clients.',
  waitlist_offer: "{workspace} : {what} le {when} est libre pour vous jusqu'à {until}. Réserver : {link}",
  stop_footer: 'STOP pour ne plus recevoir',
  reply_confirmed: '{workspace} : merci, le {when} est confirmé.',
  reply_canceled: '{workspace} : votre réservation du {when} est annulée.',
  reply_cancel_refused:
    '{workspace} : cette réservation ne peut plus être annulée par SMS. Contactez-nous : {contact}',
  reply_no_booking: '{workspace} : aucune réservation à venir pour ce numéro.',
  reply_stopped: '{workspace} : vous ne recevrez plus de SMS. Répondez START pour les recevoir à nouveau.',
  reply_started: '{workspace} : vous recevrez à nouveau des SMS. Répondez STOP pour ne plus en recevoir.',
} satisfies Record<keyof typeof en, string>;
