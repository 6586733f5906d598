/**
 * The languages customers get (the booking page, emails): English and German. The language comes
 * from `?lang=`, else the browser's Accept-Language, else the workspace locale. Dates, times and
 * prices are formatted by Intl in the resulting locale, so the clock (12/24 h) follows it too.
 */
export const LANGUAGES = ['en', 'de'] as const;
export type Lang = (typeof LANGUAGES)[number];

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
