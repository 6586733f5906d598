import type { MailCatalog } from '../mail-texts.js';

export default {
  subject_confirmed: 'Boeking bevestigd: {what}, {when}',
  subject_rescheduled: 'Boeking verplaatst: {what}, nu {when}',
  subject_canceled: 'Boeking geannuleerd: {what}, {when}',
  subject_completed: 'Bedankt voor uw bezoek aan {workspace}',
  subject_reminder: 'Herinnering: {what}, {when}',
  subject_staff_new: 'Nieuwe boeking: {what}, {when}',
  subject_staff_changed: 'Boeking gewijzigd: {what}, {when}',
  subject_staff_canceled: 'Boeking geannuleerd: {what}, {when}',
  subject_staff_calendar_edit: 'Gewijzigd in uw agenda: {what}, {when}',
  subject_test: 'Testmail van {workspace}',
  subject_payment_received: 'Betaling ontvangen: {amount} voor {what}, {when}',
  subject_payment_refunded: 'Terugbetaling van {amount}: {what}, {when}',
  subject_payment_failed: 'Betaling niet gelukt: {amount} voor {what}, {when}',
  subject_waitlist_offer: 'Er is een tijd vrij voor u: {what}, {when}',
  intro_confirmed: 'uw boeking is bevestigd.',
  intro_rescheduled: 'uw boeking is naar een nieuwe tijd verplaatst.',
  intro_canceled: 'uw boeking is geannuleerd.',
  intro_completed: 'bedankt voor uw bezoek. We hopen u snel weer te zien.',
  intro_reminder: 'een herinnering aan uw boeking.',
  intro_staff_new: 'er is een boeking voor u gemaakt.',
  intro_staff_changed: 'een van uw boekingen is gewijzigd.',
  intro_staff_canceled: 'een van uw boekingen is geannuleerd.',
  intro_staff_calendar_edit:
    'een van uw boekingen is in uw eigen agenda verplaatst of verwijderd. De boeking zelf is niet gewijzigd: open haar in het paneel om de wijziging toe te passen of te negeren.',
  intro_test: 'dit is een testmail vanuit Instellingen → Meldingen. Kunt u hem lezen, dan komen e-mails aan.',
  intro_payment_received: 'we hebben {amount} ontvangen. Dank u wel.',
  intro_payment_refunded:
    'we hebben {amount} teruggestort op uw kaart. Het kan enkele dagen duren voor het op uw afschrift staat.',
  intro_payment_failed:
    'we konden {amount} niet van uw kaart afschrijven. Neem alstublieft contact met ons op.',
  intro_waitlist_offer:
    'er is een tijd vrijgekomen waarop u wachtte. Die houden we tot {until} voor u vast: boek hem via de link hieronder, anders gaat hij naar de volgende wachtende.',
  hello: 'Hallo {name},',
  helloPlain: 'Hallo,',
  when: 'Wanneer',
  what: 'Wat',
  with: 'Bij',
  where: 'Waar',
  customer: 'Klant',
  manage: 'Uw boeking bekijken, wijzigen of annuleren',
  claim: 'Deze tijd boeken',
  reminderIn:
    'Uw afspraak begint over {unit, select, day {{count, plural, one {# dag} other {# dagen}}} hour {{count, plural, one {# uur} other {# uur}}} other {{count, plural, one {# minuut} other {# minuten}}}}.',
  attachment: 'Het bijgevoegde agendabestand (.ics) zet de boeking in uw agenda of werkt hem daar bij.',
} satisfies MailCatalog;
