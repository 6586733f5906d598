/**
 * The booking page's languages: English and German. The language comes from
 * `?lang=`, else the browser's Accept-Language, else the workspace locale. Dates, times and prices
 * are formatted by Intl in the resulting locale, so the clock (12/24 h) follows it too.
 */
export const LANGUAGES = ['en', 'de'] as const;
export type Lang = (typeof LANGUAGES)[number];

const en = {
  bookOnline: 'Book online',
  chooseLocation: 'Choose a location',
  chooseService: 'Choose a service',
  chooseStaffer: 'Choose a staff member',
  anyStaffer: 'Any available staff member',
  chooseTime: 'Choose a day and time',
  yourDetails: 'Your details',
  confirmTitle: 'Check and confirm',
  booked: 'Your booking is confirmed',
  other: 'Other services',
  minutes: (n: number) => `${n} min`,
  placesLeft: (n: number) => (n === 1 ? '1 place left' : `${n} places left`),
  noSlots: 'No free times on this day.',
  noSlotsWeek: 'No free times in these days. Try the next days.',
  earlier: 'Earlier days',
  later: 'Later days',
  timesIn: (zone: string) => `Times in ${zone}`,
  changeZone: 'Time zone',
  show: 'Show',
  back: 'Back',
  next: 'Continue',
  confirm: 'Confirm booking',
  edit: 'Change details',
  phone: 'Phone',
  phoneHint: (example: string) => `With country code, e.g. ${example}`,
  customer_first_name: 'First name',
  customer_last_name: 'Last name',
  customer_email: 'Email',
  booking_comment: 'Comment',
  booking_callback: 'Please call me back before the appointment',
  optional: '(optional)',
  required: 'This field is required.',
  invalidField: 'Please check this field.',
  invalidPhone: 'Please enter a valid phone number with its country code.',
  invalidEmail: 'Please enter a valid email address.',
  tooLong: 'This is too long.',
  formErrors: 'Please correct the marked fields.',
  service: 'Service',
  staffer: 'With',
  when: 'When',
  where: 'Where',
  price: 'Price',
  name: 'Name',
  slotTaken: 'Sorry, this time was just taken by someone else. These times are free:',
  slotGone: 'Sorry, this time is no longer available. Please choose another time.',
  spamCheck: 'The anti-spam check failed. Please try again.',
  manageTitle: 'Your booking',
  manageIntro: 'Keep this page: with its link you can see, change or cancel your booking.',
  manageLink: 'Link to manage your booking',
  addToCalendar: 'Add to calendar (.ics)',
  cancel: 'Cancel booking',
  cancelConfirm: 'Yes, cancel this booking',
  reschedule: 'Change the time',
  rescheduleTo: 'Choose the new time',
  canceled: 'This booking is canceled.',
  completed: 'This booking is completed.',
  rescheduled: 'Your booking was moved to the new time.',
  canceledNow: 'Your booking was canceled.',
  cutoffPassed: (when: string) =>
    `Changes through this page are possible until ${when}. Please contact us directly.`,
  changeUntil: (when: string) => `You can change or cancel until ${when}.`,
  notFound: 'Page not found',
  notFoundText: 'This page does not exist, or the link is no longer valid.',
  tooMany: 'Too many requests',
  tooManyText: 'Please wait a moment and try again.',
  error: 'Something went wrong',
  errorText: 'Please try again. Nothing was booked twice.',
  invalid: 'Please check your input',
  invalidText: 'This request could not be read. Please go back and try again.',
  startOver: 'Start over',
  working: 'Checking…',
  dstNote: 'The clocks change on this day: times show their UTC offset.',
};

export type Messages = typeof en;

const de: Messages = {
  bookOnline: 'Online buchen',
  chooseLocation: 'Standort wählen',
  chooseService: 'Leistung wählen',
  chooseStaffer: 'Mitarbeiter:in wählen',
  anyStaffer: 'Beliebige freie Mitarbeiter:in',
  chooseTime: 'Tag und Uhrzeit wählen',
  yourDetails: 'Ihre Angaben',
  confirmTitle: 'Prüfen und bestätigen',
  booked: 'Ihre Buchung ist bestätigt',
  other: 'Weitere Leistungen',
  minutes: (n) => `${n} Min.`,
  placesLeft: (n) => (n === 1 ? 'Noch 1 Platz frei' : `Noch ${n} Plätze frei`),
  noSlots: 'An diesem Tag ist nichts frei.',
  noSlotsWeek: 'In diesen Tagen ist nichts frei. Versuchen Sie die nächsten Tage.',
  earlier: 'Frühere Tage',
  later: 'Spätere Tage',
  timesIn: (zone) => `Uhrzeiten in ${zone}`,
  changeZone: 'Zeitzone',
  show: 'Anzeigen',
  back: 'Zurück',
  next: 'Weiter',
  confirm: 'Verbindlich buchen',
  edit: 'Angaben ändern',
  phone: 'Telefon',
  phoneHint: (example) => `Mit Ländervorwahl, z. B. ${example}`,
  customer_first_name: 'Vorname',
  customer_last_name: 'Nachname',
  customer_email: 'E-Mail',
  booking_comment: 'Kommentar',
  booking_callback: 'Bitte rufen Sie mich vor dem Termin zurück',
  optional: '(optional)',
  required: 'Dieses Feld ist erforderlich.',
  invalidField: 'Bitte prüfen Sie dieses Feld.',
  invalidPhone: 'Bitte geben Sie eine gültige Telefonnummer mit Ländervorwahl ein.',
  invalidEmail: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  tooLong: 'Das ist zu lang.',
  formErrors: 'Bitte korrigieren Sie die markierten Felder.',
  service: 'Leistung',
  staffer: 'Bei',
  when: 'Wann',
  where: 'Wo',
  price: 'Preis',
  name: 'Name',
  slotTaken: 'Diese Uhrzeit wurde gerade vergeben. Diese Zeiten sind frei:',
  slotGone: 'Diese Uhrzeit ist nicht mehr frei. Bitte wählen Sie eine andere.',
  spamCheck: 'Die Spam-Prüfung ist fehlgeschlagen. Bitte versuchen Sie es erneut.',
  manageTitle: 'Ihre Buchung',
  manageIntro:
    'Bewahren Sie diese Seite auf: Mit ihrem Link können Sie die Buchung ansehen, ändern oder stornieren.',
  manageLink: 'Link zur Verwaltung Ihrer Buchung',
  addToCalendar: 'Zum Kalender hinzufügen (.ics)',
  cancel: 'Buchung stornieren',
  cancelConfirm: 'Ja, diese Buchung stornieren',
  reschedule: 'Uhrzeit ändern',
  rescheduleTo: 'Neue Uhrzeit wählen',
  canceled: 'Diese Buchung ist storniert.',
  completed: 'Diese Buchung ist abgeschlossen.',
  rescheduled: 'Ihre Buchung wurde auf die neue Uhrzeit verschoben.',
  canceledNow: 'Ihre Buchung wurde storniert.',
  cutoffPassed: (when) =>
    `Änderungen über diese Seite waren bis ${when} möglich. Bitte wenden Sie sich direkt an uns.`,
  changeUntil: (when) => `Ändern oder stornieren bis ${when}.`,
  notFound: 'Seite nicht gefunden',
  notFoundText: 'Diese Seite gibt es nicht, oder der Link ist nicht mehr gültig.',
  tooMany: 'Zu viele Anfragen',
  tooManyText: 'Bitte warten Sie einen Moment und versuchen Sie es erneut.',
  error: 'Etwas ist schiefgegangen',
  errorText: 'Bitte versuchen Sie es erneut. Es wurde nichts doppelt gebucht.',
  invalid: 'Bitte prüfen Sie Ihre Eingabe',
  invalidText: 'Diese Anfrage war nicht lesbar. Bitte gehen Sie zurück und versuchen Sie es erneut.',
  startOver: 'Neu beginnen',
  working: 'Prüfe…',
  dstNote: 'An diesem Tag wird die Uhr umgestellt: Uhrzeiten zeigen ihren UTC-Versatz.',
};

export const MESSAGES: Record<Lang, Messages> = { en, de };

function langOf(tag: string | undefined): Lang | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return (LANGUAGES as readonly string[]).includes(base ?? '') ? (base as Lang) : undefined;
}

/** `?lang=` first, then the first supported language of Accept-Language (by q), then the workspace's. */
export function pickLanguage(
  query: string | undefined,
  acceptLanguage: string | undefined,
  workspaceLocale: string,
): Lang {
  const asked = langOf(query);
  if (asked) return asked;
  const accepted = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { lang: langOf(tag), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.lang !== undefined && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return accepted[0]?.lang ?? langOf(workspaceLocale) ?? 'en';
}

/** The Intl locale: the workspace's own when it is of this language (de-AT stays de-AT), else the language. */
export function intlLocale(lang: Lang, workspaceLocale: string): string {
  return langOf(workspaceLocale) === lang ? workspaceLocale : lang === 'en' ? 'en-US' : 'de-DE';
}
