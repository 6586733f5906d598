import type { MailCatalog } from '../mail-texts.js';

export default {
  subject_confirmed: 'Buchung bestätigt: {what}, {when}',
  subject_rescheduled: 'Buchung verschoben: {what}, neu {when}',
  subject_canceled: 'Buchung storniert: {what}, {when}',
  subject_completed: 'Vielen Dank für Ihren Besuch bei {workspace}',
  subject_reminder: 'Erinnerung: {what}, {when}',
  subject_staff_new: 'Neue Buchung: {what}, {when}',
  subject_staff_changed: 'Buchung geändert: {what}, {when}',
  subject_staff_canceled: 'Buchung storniert: {what}, {when}',
  subject_staff_calendar_edit: 'In Ihrem Kalender geändert: {what}, {when}',
  subject_test: 'Test-E-Mail von {workspace}',
  subject_payment_received: 'Zahlung erhalten: {amount} für {what}, {when}',
  subject_payment_refunded: 'Erstattung von {amount}: {what}, {when}',
  subject_payment_failed: 'Zahlung nicht erfolgt: {amount} für {what}, {when}',
  subject_waitlist_offer: 'Ein Termin ist für Sie frei: {what}, {when}',
  intro_confirmed: 'Ihre Buchung ist bestätigt.',
  intro_rescheduled: 'Ihre Buchung wurde auf einen neuen Termin verschoben.',
  intro_canceled: 'Ihre Buchung wurde storniert.',
  intro_completed: 'vielen Dank für Ihren Besuch. Wir freuen uns auf Ihren nächsten.',
  intro_reminder: 'wir erinnern Sie an Ihre Buchung.',
  intro_staff_new: 'für Sie wurde eine Buchung angelegt.',
  intro_staff_changed: 'eine Ihrer Buchungen wurde geändert.',
  intro_staff_canceled: 'eine Ihrer Buchungen wurde storniert.',
  intro_staff_calendar_edit:
    'eine Ihrer Buchungen wurde in Ihrem eigenen Kalender verschoben oder gelöscht. Die Buchung selbst ist unverändert: Öffnen Sie sie im Panel, um die Änderung zu übernehmen oder zu ignorieren.',
  intro_test:
    'dies ist eine Test-E-Mail aus Einstellungen → Benachrichtigungen. Wenn Sie sie lesen, kommen E-Mails an.',
  intro_payment_received: 'wir haben {amount} erhalten. Vielen Dank.',
  intro_payment_refunded:
    'wir haben {amount} auf Ihre Karte erstattet. Bis es auf Ihrer Abrechnung erscheint, kann es einige Tage dauern.',
  intro_payment_failed: 'wir konnten {amount} nicht von Ihrer Karte abbuchen. Bitte melden Sie sich bei uns.',
  intro_waitlist_offer:
    'ein Termin, auf den Sie gewartet haben, ist frei geworden. Er ist bis {until} für Sie reserviert: Buchen Sie ihn über den Link unten, sonst geht er an die nächste wartende Person.',
  hello: 'Hallo {name},',
  helloPlain: 'Hallo,',
  when: 'Wann',
  what: 'Was',
  with: 'Bei',
  where: 'Wo',
  customer: 'Kunde',
  manage: 'Buchung ansehen, ändern oder stornieren',
  claim: 'Diesen Termin buchen',
  reminderIn:
    'Sie beginnt in {unit, select, day {{count, plural, one {# Tag} other {# Tagen}}} hour {{count, plural, one {# Stunde} other {# Stunden}}} other {{count, plural, one {# Minute} other {# Minuten}}}}.',
  attachment:
    'Die angehängte Kalenderdatei (.ics) trägt die Buchung in Ihren Kalender ein oder aktualisiert sie dort.',
} satisfies MailCatalog;
