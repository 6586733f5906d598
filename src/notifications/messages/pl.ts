import type { MailCatalog } from '../mail-texts.js';

export default {
  subject_confirmed: 'Rezerwacja potwierdzona: {what}, {when}',
  subject_rescheduled: 'Rezerwacja przeniesiona: {what}, teraz {when}',
  subject_canceled: 'Rezerwacja odwołana: {what}, {when}',
  subject_completed: 'Dziękujemy za wizytę w {workspace}',
  subject_reminder: 'Przypomnienie: {what}, {when}',
  subject_staff_new: 'Nowa rezerwacja: {what}, {when}',
  subject_staff_changed: 'Zmieniona rezerwacja: {what}, {when}',
  subject_staff_canceled: 'Odwołana rezerwacja: {what}, {when}',
  subject_staff_calendar_edit: 'Zmienione w Twoim kalendarzu: {what}, {when}',
  subject_test: 'Testowy e-mail od {workspace}',
  subject_payment_received: 'Płatność otrzymana: {amount} za {what}, {when}',
  subject_payment_refunded: 'Zwrot {amount}: {what}, {when}',
  subject_payment_failed: 'Płatność nieudana: {amount} za {what}, {when}',
  subject_waitlist_offer: 'Zwolnił się termin dla Ciebie: {what}, {when}',
  intro_confirmed: 'Twoja rezerwacja jest potwierdzona.',
  intro_rescheduled: 'Twoja rezerwacja została przeniesiona na nowy termin.',
  intro_canceled: 'Twoja rezerwacja została odwołana.',
  intro_completed: 'dziękujemy za wizytę. Mamy nadzieję, że jeszcze się zobaczymy.',
  intro_reminder: 'przypominamy o Twojej rezerwacji.',
  intro_staff_new: 'dokonano rezerwacji u Ciebie.',
  intro_staff_changed: 'jedna z Twoich rezerwacji się zmieniła.',
  intro_staff_canceled: 'jedna z Twoich rezerwacji została odwołana.',
  intro_staff_calendar_edit:
    'jedna z Twoich rezerwacji została przeniesiona lub usunięta w Twoim własnym kalendarzu. Sama rezerwacja się nie zmieniła: otwórz ją w panelu, aby zastosować lub zignorować zmianę.',
  intro_test:
    'to jest testowy e-mail z Ustawienia → Powiadomienia. Jeśli go czytasz, e-maile docierają do odbiorców.',
  intro_payment_received: 'otrzymaliśmy {amount}. Dziękujemy.',
  intro_payment_refunded:
    'zwróciliśmy {amount} na Twoją kartę. Może minąć kilka dni, zanim pojawi się to na wyciągu.',
  intro_payment_failed: 'nie udało się pobrać {amount} z Twojej karty. Prosimy o kontakt.',
  intro_waitlist_offer:
    'zwolnił się termin, na który czekasz. Trzymamy go dla Ciebie do {until}: zarezerwuj go przez link poniżej, inaczej trafi do następnej osoby w kolejce.',
  hello: 'Dzień dobry {name},',
  helloPlain: 'Dzień dobry,',
  when: 'Kiedy',
  what: 'Co',
  with: 'Pracownik',
  where: 'Gdzie',
  customer: 'Klient',
  manage: 'Zobacz, zmień lub odwołaj rezerwację',
  claim: 'Zarezerwuj ten termin',
  reminderIn:
    'Zaczyna się za {unit, select, day {{count, plural, one {# dzień} few {# dni} many {# dni} other {# dnia}}} hour {{count, plural, one {# godzinę} few {# godziny} many {# godzin} other {# godziny}}} other {{count, plural, one {# minutę} few {# minuty} many {# minut} other {# minuty}}}}.',
  attachment:
    'Załączony plik kalendarza (.ics) dodaje rezerwację do Twojego kalendarza lub ją tam aktualizuje.',
} satisfies MailCatalog;
