import type { Lang } from '../platform/i18n.js';
import { type Translate, translator } from '../platform/message-format.js';
import ar from './messages/ar.js';
import de from './messages/de.js';
import en from './messages/en.js';
import es from './messages/es.js';
import fr from './messages/fr.js';
import it from './messages/it.js';
import nl from './messages/nl.js';
import pl from './messages/pl.js';
import pt from './messages/pt.js';
import tr from './messages/tr.js';
import uk from './messages/uk.js';

/**
 * The booking and manage pages' texts: one ICU MessageFormat catalog per language in
 * `messages/` (English the source), formatted on the server, so no catalog reaches the browser.
 * src/platform/i18n.ts picks the language.
 */
export type MessageKey = keyof typeof en;
export type Catalog = Record<MessageKey, string>;

export const CATALOGS: Record<Lang, Catalog> = { en, de, fr, es, it, pt, nl, pl, uk, tr, ar };

/** The messages that take values, and which: the pages call them as functions. */
const WITH_VALUES = {
  minutes: 'n',
  placesLeft: 'n',
  timesIn: 'zone',
  phoneHint: 'example',
  cutoffPassed: 'when',
  changeUntil: 'when',
  awaitingPayment: 'when',
  dueDeposit: 'amount',
  duePrepayment: 'amount',
  freeCancelUntil: 'hours',
  lateCancelFee: 'percent',
  noShowFee: 'percent',
  cancelLateFee: 'amount',
  cancelRefund: 'amount',
  cancelCharge: 'amount',
  seriesWeeks: 'n',
  seriesTimes: 'n',
  seriesDateFree: 'when',
  seriesDateTaken: 'when',
  seriesOthers: 'n',
  offerHeld: 'when',
} as const satisfies Partial<Record<MessageKey, string>>;
type WithValues = typeof WITH_VALUES;

/** What a page reads: plain texts as strings, the others as functions of their one value. */
export type Messages = { [K in Exclude<MessageKey, keyof WithValues>]: string } & {
  [K in keyof WithValues]: (
    value: K extends
      | 'minutes'
      | 'placesLeft'
      | 'freeCancelUntil'
      | 'seriesWeeks'
      | 'seriesTimes'
      | 'seriesOthers'
      ? number
      : string,
  ) => string;
};

const built = new Map<string, Messages>();

/** The page texts of `lang`, numbers formatted in `locale` (kept per pair: they never change). */
export function messagesFor(lang: Lang, locale: string): Messages {
  const id = `${lang}\u0000${locale}`;
  const cached = built.get(id);
  if (cached) return cached;
  const t: Translate<MessageKey> = translator(`booking-page.${lang}`, CATALOGS[lang], locale);
  const messages: Record<string, unknown> = {};
  for (const key of Object.keys(en) as MessageKey[]) {
    const argument = (WITH_VALUES as Partial<Record<MessageKey, string>>)[key];
    messages[key] = argument ? (value: string | number) => t(key, { [argument]: value }) : t(key);
  }
  built.set(id, messages as Messages);
  return messages as Messages;
}
