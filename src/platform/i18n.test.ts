import { describe, expect, it } from 'vitest';
import { intlLocale, LANGUAGE_NAMES, LANGUAGES, pickLanguage, textDirection } from './i18n.js';

describe('pickLanguage', () => {
  it('takes ?lang= first, then Accept-Language by q, then the workspace locale, then English', () => {
    expect(pickLanguage('ar', 'de', 'pl-PL')).toBe('ar');
    expect(pickLanguage(undefined, 'ja, uk;q=0.5, tr;q=0.8', 'pl-PL')).toBe('tr');
    expect(pickLanguage('xx', 'ja', 'pt-BR')).toBe('pt');
    expect(pickLanguage(undefined, undefined, 'ja-JP')).toBe('en');
  });
});

describe('intlLocale', () => {
  it('keeps the workspace locale of the same language, else the language’s own', () => {
    expect(intlLocale('de', 'de-AT')).toBe('de-AT');
    expect(intlLocale('nl', 'de-AT')).toBe('nl-NL');
    expect(intlLocale('ar', 'ar-EG')).toBe('ar-EG');
  });

  it('gives Arabic Latin digits unless the workspace is Arabic itself', () => {
    const time = (locale: string) =>
      new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'UTC' }).format(
        Date.UTC(2026, 2, 27, 9, 30),
      );
    expect(time(intlLocale('ar', 'en-US'))).toMatch(/9:30/);
  });
});

describe('the languages', () => {
  it('each have a name in itself and a direction; only Arabic reads right to left', () => {
    expect(Object.keys(LANGUAGE_NAMES).sort()).toEqual([...LANGUAGES].sort());
    expect(LANGUAGES.filter((lang) => textDirection(lang) === 'rtl')).toEqual(['ar']);
  });
});
