import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../platform/i18n.js';
import { catalogProblems } from '../platform/message-format.js';
import { PANEL_CATALOGS, panelText } from './i18n.js';

describe('the panel catalogs', () => {
  it('exist for every language', () => {
    expect(Object.keys(PANEL_CATALOGS).sort()).toEqual([...LANGUAGES].sort());
  });

  it('have every key of English, with the same arguments, in every language', () => {
    expect(catalogProblems(PANEL_CATALOGS.en, PANEL_CATALOGS)).toEqual([]);
  });

  it('fail the check when a language lacks a key or names a placeholder differently', () => {
    const { 'home.today': _dropped, ...lacking } = PANEL_CATALOGS.de;
    const renamed = { ...PANEL_CATALOGS.fr, 'calendar.weekOf': 'Semaine du {day}' };
    expect(catalogProblems(PANEL_CATALOGS.en, { de: lacking, fr: renamed })).toEqual([
      'de lacks home.today',
      'fr.calendar.weekOf uses {day}, the source {date}',
    ]);
  });

  it('are translations, not copies of English', () => {
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const same = Object.entries(PANEL_CATALOGS[lang]).filter(
        ([key, message]) => message === PANEL_CATALOGS.en[key as keyof typeof PANEL_CATALOGS.en],
      );
      // A few words are the same as in English (Admin, Webhooks, Menu, Spam); most texts are not.
      expect(same.length, `${lang}: ${same.map(([key]) => key).join(', ')}`).toBeLessThan(
        Object.keys(PANEL_CATALOGS.en).length / 10,
      );
    }
  });

  it('count bookings with each language’s plural forms', () => {
    const shown = (lang: 'en' | 'pl' | 'ar' | 'uk', locale: string, n: number) =>
      panelText(lang, locale)
        .t('calendar.legend', { n, work: '', break: '', off: '' })
        .split(' · ')[1]
        ?.split('.')[0];
    expect([1, 2].map((n) => shown('en', 'en-US', n))).toEqual(['1 booking shown', '2 bookings shown']);
    expect([1, 2, 5].map((n) => shown('pl', 'pl-PL', n))).toEqual([
      '1 rezerwacja widoczna',
      '2 rezerwacje widoczne',
      '5 rezerwacji widocznych',
    ]);
    expect([1, 3, 11].map((n) => shown('uk', 'uk-UA', n))).toEqual([
      '1 бронювання показано',
      '3 бронювання показано',
      '11 бронювань показано',
    ]);
    expect([1, 2, 3, 11].map((n) => shown('ar', 'ar-u-nu-latn', n))).toEqual([
      'حجز واحد معروض',
      'حجزان معروضان',
      '3 حجوزات معروضة',
      '11 حجزًا معروضًا',
    ]);
  });

  it('format numbers in the reader’s locale', () => {
    expect(panelText('de', 'de-DE').t('kit.pageOf', { page: 2, last: 1200 })).toBe('Seite 2 von 1.200');
    expect(panelText('en', 'en-US').t('kit.pageOf', { page: 2, last: 1200 })).toBe('Page 2 of 1,200');
  });
});
