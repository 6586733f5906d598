import type { FastifyRequest } from 'fastify';
import { type ComponentChildren, createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { intlLocale, type Lang, pickLanguage, textDirection } from '../platform/i18n.js';
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

/**
 * The staff panel's texts: one ICU MessageFormat catalog per language in `messages/` (English
 * the source; keys grouped by the feature that shows them, `home.*`, `calendar.*`), formatted on
 * the server. No catalog reaches the browser: an island gets its few strings as data attributes.
 */
export type PanelKey = keyof typeof en;
export type PanelCatalog = Record<PanelKey, string>;

export const PANEL_CATALOGS: Record<Lang, PanelCatalog> = { en, de, fr, es, it, pt, nl, pl, uk, tr, ar };

/** A panel page's language: its texts, its Intl locale (dates, numbers, prices) and direction. */
export interface PanelText {
  lang: Lang;
  /** The Intl locale: the workspace's own when it is of this language (de-AT stays de-AT). */
  locale: string;
  dir: 'ltr' | 'rtl';
  t: (key: PanelKey, values?: MessageValues) => string;
}

const built = new Map<string, PanelText>();

/** The panel texts of `lang` for a workspace of `workspaceLocale` (kept per pair: they never change). */
export function panelText(lang: Lang, workspaceLocale: string): PanelText {
  const id = `${lang}\u0000${workspaceLocale}`;
  let text = built.get(id);
  if (!text) {
    const locale = intlLocale(lang, workspaceLocale);
    text = {
      lang,
      locale,
      dir: textDirection(lang),
      t: translator(`panel.${lang}`, PANEL_CATALOGS[lang], locale),
    };
    built.set(id, text);
  }
  return text;
}

/**
 * The language of a panel request: the one the signed-in user picked, else the browser's
 * Accept-Language, else the workspace's locale, else English (the sign-in page has no workspace).
 */
export function panelTextOf(request: FastifyRequest): PanelText {
  const session = request.panel;
  const workspaceLocale = session?.workspace?.locale ?? 'en-US';
  const header = request.headers['accept-language'];
  const lang =
    session?.user.language ??
    pickLanguage(
      undefined,
      Array.isArray(header) ? header[0] : header,
      session?.workspace ? workspaceLocale : 'en',
    );
  return panelText(lang, workspaceLocale);
}

/**
 * The page's texts for the kit's parts (layout, form summary, pager), which are always rendered
 * as elements inside the page: render.tsx provides them. A feature page called as a function by
 * its route gets its `PanelText` from the route instead (`panelTextOf`).
 */
export const PanelTextContext = createContext<PanelText>(panelText('en', 'en-US'));

export function usePanelText(): PanelText {
  return useContext(PanelTextContext);
}

/**
 * A message with elements inside it (a link, a <code>): each element's name is a placeholder of
 * the message, so translations may move it; the text around it is escaped as usual.
 */
export function withElements(
  text: string | ((values: MessageValues) => string),
  elements: Record<string, ComponentChildren>,
): ComponentChildren[] {
  const names = Object.keys(elements);
  const marked =
    typeof text === 'string'
      ? text
      : text(Object.fromEntries(names.map((name, index) => [name, `\uE000${index}\uE000`])));
  return marked
    .split(/\uE000(\d+)\uE000/)
    .map((part, index) => (index % 2 === 1 ? elements[names[Number(part)]!] : part))
    .filter((part) => part !== '');
}
