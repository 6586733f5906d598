/**
 * The languages customers get (the booking and manage pages, emails). The language comes from
 * `?lang=`, else the browser's Accept-Language, else the workspace locale. Dates, times, numbers
 * and prices are formatted by Intl in the resulting locale, so the clock (12/24 h) follows it too.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'uk', 'tr', 'ar'] as const;
export type Lang = (typeof LANGUAGES)[number];

/** Each language's name in itself, for the language switcher (a customer looks for their own). */
export const LANGUAGE_NAMES: Record<Lang, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  pt: 'Português',
  nl: 'Nederlands',
  pl: 'Polski',
  uk: 'Українська',
  tr: 'Türkçe',
  ar: 'العربية',
};

/**
 * The Intl locale of a language when the workspace's locale is of another one. Arabic keeps
 * Latin digits (`nu-latn`): the times and prices sit beside phone numbers and emails the customer
 * types in Latin digits, and Maghreb countries write them so too; a workspace whose own locale is
 * Arabic (ar-EG, ar-SA) gets that locale's digits instead.
 */
const DEFAULT_LOCALES: Record<Lang, string> = {
  en: 'en-US',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
  it: 'it-IT',
  pt: 'pt-PT',
  nl: 'nl-NL',
  pl: 'pl-PL',
  uk: 'uk-UA',
  tr: 'tr-TR',
  ar: 'ar-u-nu-latn',
};

const RIGHT_TO_LEFT: readonly Lang[] = ['ar'];

/** A language tag's supported language, or undefined ("pt-BR" → pt, "zh" → undefined). */
export function langOf(tag: string | null | undefined): Lang | undefined {
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

/** The Intl locale: the workspace's own when it is of this language (de-AT stays de-AT), else the language's. */
export function intlLocale(lang: Lang, workspaceLocale: string): string {
  return langOf(workspaceLocale) === lang ? workspaceLocale : DEFAULT_LOCALES[lang];
}

/** The writing direction of a language, for `<html dir>`. */
export function textDirection(lang: Lang): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.includes(lang) ? 'rtl' : 'ltr';
}
