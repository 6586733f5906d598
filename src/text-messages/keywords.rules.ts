/**
 * What an inbound text asks for, from its first word. Pure. Opt-out words are the carriers' and
 * Twilio's (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, OPTOUT, REVOKE) and their usual
 * equivalents in the languages Kairos speaks (ARRET, HALT, ALTO, BASTA, PARAR, STOPP, ...).
 * CANCEL is an opt-out word for the carriers; a customer who wants to cancel a booking writes
 * "CANCEL BOOKING", "STORNO", "ANNULER", or the like: a cancel keyword only counts for the
 * booking when it is not one of the carriers' opt-out words, so the two never collide.
 */
export type InboundAction = 'stop' | 'start' | 'confirm' | 'cancel' | 'other';

const STOP = new Set([
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'OPTOUT',
  'OPT-OUT',
  'REVOKE',
  'HALT',
  'ARRET',
  'ARRÊT',
  'ARRETER',
  'STOPP',
  'ABMELDEN',
  'ALTO',
  'BAJA',
  'PARAR',
  'BASTA',
  'FERMA',
  'AFMELDEN',
  'DUR',
  'СТОП',
  'توقف',
  'ايقاف',
  'إيقاف',
]);
const START = new Set([
  'START',
  'UNSTOP',
  'YES START',
  'SUBSCRIBE',
  'RESUME',
  'DEMARRER',
  'DÉMARRER',
  'ANMELDEN',
  'ALTA',
  'СТАРТ',
  'ابدأ',
]);
const CONFIRM = new Set([
  'C',
  'CONFIRM',
  'YES',
  'Y',
  'OK',
  'JA',
  'J',
  'OUI',
  'SI',
  'SÍ',
  'SIM',
  'TAK',
  'TAK.',
  'EVET',
  'ТАК',
  'ДА',
  'نعم',
  'BESTÄTIGEN',
  'CONFIRMER',
  'CONFIRMAR',
  'CONFERMA',
  'BEVESTIG',
  'POTWIERDZAM',
  'ONAY',
  'ПІДТВЕРДЖУЮ',
  'تأكيد',
]);
const CANCEL = new Set([
  'CANCEL BOOKING',
  'STORNO',
  'STORNIEREN',
  'ABSAGEN',
  'ANNULER',
  'ANNULLA',
  'CANCELAR',
  'ANULAR',
  'ANNULEREN',
  'ODWOŁAJ',
  'ODWOLAJ',
  'IPTAL',
  'İPTAL',
  'СКАСУВАТИ',
  'إلغاء',
  'الغاء',
]);

export function classifyInbound(body: string): InboundAction {
  const text = body
    .trim()
    .replace(/[.!]+$/, '')
    .replace(/\s+/g, ' ')
    .toUpperCase();
  const first = text.split(' ')[0] ?? '';
  if (START.has(text)) return 'start';
  if (CANCEL.has(text)) return 'cancel';
  if (STOP.has(first) && (text === first || first !== 'CANCEL')) return 'stop';
  if (START.has(first)) return 'start';
  if (CONFIRM.has(text) || CONFIRM.has(first)) return 'confirm';
  if (CANCEL.has(first)) return 'cancel';
  return 'other';
}
