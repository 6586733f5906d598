import type en from './en.js';

export default {
  confirmed: '{workspace}: {what} il {when}, {location} è prenotato. Gestisci: {link}',
  rescheduled: '{workspace}: {what} spostato al {when}, {location}. Gestisci: {link}',
  canceled: '{workspace}: {what} il {when} è annullato. {link}',
  reminder: '{workspace}: promemoria, {what} il {when}, {location}. Rispondi C per confermare. {link}',
  test: '{workspace}: un SMS di prova. Se lo leggi, gli SMS arrivano ai tuoi clienti.',
  waitlist_offer: '{workspace}: {what} il {when} è libero per te fino alle {until}. Prenota: {link}',
  stop_footer: 'STOP per disiscriverti',
  reply_confirmed: '{workspace}: grazie, il {when} è confermato.',
  reply_canceled: '{workspace}: la tua prenotazione del {when} è annullata.',
  reply_cancel_refused:
    '{workspace}: questa prenotazione non si può più annullare via SMS. Contattaci: {contact}',
  reply_no_booking: '{workspace}: nessuna prenotazione in arrivo per questo numero.',
  reply_stopped: '{workspace}: non riceverai più SMS. Rispondi START per riceverli di nuovo.',
  reply_started: '{workspace}: riceverai di nuovo gli SMS. Rispondi STOP per disiscriverti.',
} satisfies Record<keyof typeof en, string>;
