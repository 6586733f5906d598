import type { MailCatalog } from '../mail-texts.js';

export default {
  subject_confirmed: 'Prenotazione confermata: {what}, {when}',
  subject_rescheduled: 'Prenotazione spostata: {what}, ora {when}',
  subject_canceled: 'Prenotazione annullata: {what}, {when}',
  subject_completed: 'Grazie per la tua visita da {workspace}',
  subject_reminder: 'Promemoria: {what}, {when}',
  subject_staff_new: 'Nuova prenotazione: {what}, {when}',
  subject_staff_changed: 'Prenotazione modificata: {what}, {when}',
  subject_staff_canceled: 'Prenotazione annullata: {what}, {when}',
  subject_staff_calendar_edit: 'Modificato nel tuo calendario: {what}, {when}',
  subject_test: 'Email di prova da {workspace}',
  subject_payment_received: 'Pagamento ricevuto: {amount} per {what}, {when}',
  subject_payment_refunded: 'Rimborso di {amount}: {what}, {when}',
  subject_payment_failed: 'Pagamento non riuscito: {amount} per {what}, {when}',
  subject_waitlist_offer: 'Un orario è libero per te: {what}, {when}',
  intro_confirmed: 'la tua prenotazione è confermata.',
  intro_rescheduled: 'la tua prenotazione è stata spostata a un nuovo orario.',
  intro_canceled: 'la tua prenotazione è stata annullata.',
  intro_completed: 'grazie per la tua visita. Speriamo di rivederti presto.',
  intro_reminder: 'un promemoria della tua prenotazione.',
  intro_staff_new: 'è stata fatta una prenotazione con te.',
  intro_staff_changed: 'una delle tue prenotazioni è cambiata.',
  intro_staff_canceled: 'una delle tue prenotazioni è stata annullata.',
  intro_staff_calendar_edit:
    'una delle tue prenotazioni è stata spostata o eliminata nel tuo calendario. La prenotazione in sé non è cambiata: aprila nel pannello per applicare o ignorare la modifica.',
  intro_test:
    'questa è un’email di prova da Impostazioni → Notifiche. Se riesci a leggerla, le email arrivano ai destinatari.',
  intro_payment_received: 'abbiamo ricevuto {amount}. Grazie.',
  intro_payment_refunded:
    'abbiamo rimborsato {amount} sulla tua carta. Possono servire alcuni giorni perché compaia nell’estratto conto.',
  intro_payment_failed: 'non siamo riusciti ad addebitare {amount} sulla tua carta. Contattaci, per favore.',
  intro_waitlist_offer:
    'si è liberato un orario che aspettavi. È riservato a te fino a {until}: prenotalo con il link qui sotto, altrimenti passa alla persona successiva in attesa.',
  hello: 'Ciao {name},',
  helloPlain: 'Ciao,',
  when: 'Quando',
  what: 'Cosa',
  with: 'Con',
  where: 'Dove',
  customer: 'Cliente',
  manage: 'Vedi, modifica o annulla la prenotazione',
  claim: 'Prenota questo orario',
  reminderIn:
    'Inizia tra {unit, select, day {{count, plural, one {# giorno} other {# giorni}}} hour {{count, plural, one {# ora} other {# ore}}} other {{count, plural, one {# minuto} other {# minuti}}}}.',
  attachment:
    'Il file di calendario allegato (.ics) aggiunge la prenotazione al tuo calendario o la aggiorna.',
} satisfies MailCatalog;
