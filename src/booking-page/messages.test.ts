import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../platform/i18n.js';
import { catalogProblems } from '../platform/message-format.js';
import { CATALOGS, messagesFor } from './i18n.js';

describe('the booking page catalogs', () => {
  it('exist for every language', () => {
    expect(Object.keys(CATALOGS).sort()).toEqual([...LANGUAGES].sort());
  });

  it('have every key of English, with the same arguments, in every language', () => {
    expect(catalogProblems(CATALOGS.en, CATALOGS)).toEqual([]);
  });

  it('count places with each language’s plural forms', () => {
    expect([1, 2].map((n) => messagesFor('en', 'en-US').placesLeft(n))).toEqual([
      '1 place left',
      '2 places left',
    ]);
    expect([1, 2, 5].map((n) => messagesFor('pl', 'pl-PL').placesLeft(n))).toEqual([
      'Zostało 1 miejsce',
      'Zostały 2 miejsca',
      'Zostało 5 miejsc',
    ]);
    expect([1, 2, 3, 11].map((n) => messagesFor('ar', 'ar-u-nu-latn').placesLeft(n))).toEqual([
      'بقي مكان واحد',
      'بقي مكانان',
      'بقيت 3 أماكن',
      'بقي 11 مكانًا',
    ]);
    expect(messagesFor('ar', 'ar-u-nu-latn').minutes(30)).toBe('30 دقيقة');
  });
});
