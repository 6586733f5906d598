import { manageLinkPath } from '../bookings/booking-links.js';
import type { TextKind } from '../platform/db/schema.js';
import { intlLocale, LANGUAGES, type Lang, langOf, pickLanguage } from '../platform/i18n.js';
import { type MessageValues, translator } from '../platform/message-format.js';
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
import { countSegments, type SegmentCount } from './segments.rules.js';

/** The texts' words per language (ICU catalogs in messages/, English the source). */
export type TextKey = keyof typeof en;
export const TEXT_CATALOGS: Record<Lang, Record<TextKey, string>> = {
  en,
  de,
  fr,
  es,
  it,
  pt,
  nl,
  pl,
  uk,
  tr,
  ar,
};

/** What a booking text says, as of the change it tells of. */
export interface TextSnapshot {
  workspaceName: string;
  workspaceSlug: string;
  /** The workspace locale: numbers, dates, and the language when the customer's is not known. */
  locale: string;
  /** The language booked in (the booking page's), or null. */
  language: string | null;
  manageToken: string | null;
  services: string;
  location: string;
  zone: string;
  /** ISO instant. */
  start: string;
  /** A waitlist offer's claim link, as a path, and the end of its hold (ISO). */
  offerPath?: string;
  heldUntil?: string;
}

export function textLanguage(snapshot: Pick<TextSnapshot, 'language' | 'locale'>): Lang {
  return langOf(snapshot.language) ?? pickLanguage(undefined, undefined, snapshot.locale);
}

/**
 * The start as a text says it, short: "Thu, Sep 10, 2:00 PM GMT+2": weekday, date, time and the
 * offset of the zone (a customer abroad reads which clock it is on).
 */
export function textWhen(startMs: number, zone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: zone,
    timeZoneName: 'short',
  }).format(startMs);
}

/** A booking text (or a test text) in the customer's language, with the opt-out footer. */
export function renderText(kind: TextKind, snapshot: TextSnapshot, publicBase: string): string {
  const lang = textLanguage(snapshot);
  const locale = intlLocale(lang, snapshot.locale);
  const t = translator(`text.${lang}`, TEXT_CATALOGS[lang], locale);
  const link = snapshot.offerPath
    ? `${publicBase}${snapshot.offerPath}${langOf(snapshot.language) ? `?lang=${lang}` : ''}`
    : snapshot.manageToken
      ? `${publicBase}${manageLinkPath(snapshot.workspaceSlug, snapshot.manageToken)}${langOf(snapshot.language) ? `?lang=${lang}` : ''}`
      : '';
  const values: MessageValues = {
    workspace: snapshot.workspaceName,
    what: snapshot.services,
    when: textWhen(Date.parse(snapshot.start), snapshot.zone, locale),
    location: snapshot.location,
    link,
    until: snapshot.heldUntil
      ? new Intl.DateTimeFormat(locale, {
          hour: 'numeric',
          minute: '2-digit',
          timeZone: snapshot.zone,
        }).format(Date.parse(snapshot.heldUntil))
      : '',
  };
  const body = t(kind, values).trim();
  return kind === 'test' ? body : `${body}\n${t('stop_footer')}`;
}

/** An answer to an inbound text (a confirm, a cancel, STOP), in `lang`. */
export function renderReply(
  key: TextKey,
  lang: Lang,
  workspaceLocale: string,
  values: MessageValues,
): string {
  return translator(`text.${lang}`, TEXT_CATALOGS[lang], intlLocale(lang, workspaceLocale))(key, values);
}

/** The panel's preview: each kind in each language for a sample booking, with its segments. */
export function previewTexts(
  sample: TextSnapshot,
  publicBase: string,
  kinds: TextKind[],
): { lang: Lang; kind: TextKind; body: string; count: SegmentCount }[] {
  return LANGUAGES.flatMap((lang) =>
    kinds.map((kind) => {
      const body = renderText(kind, { ...sample, language: lang }, publicBase);
      return { lang, kind, body, count: countSegments(body) };
    }),
  );
}
