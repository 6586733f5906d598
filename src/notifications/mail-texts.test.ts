import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../platform/i18n.js';
import { catalogProblems } from '../platform/message-format.js';
import { MAIL_CATALOGS, mailTexts } from './mail-texts.js';

describe('the email catalogs', () => {
  it('exist for every language', () => {
    expect(Object.keys(MAIL_CATALOGS).sort()).toEqual([...LANGUAGES].sort());
  });

  it('have every key of English, with the same arguments, in every language', () => {
    expect(catalogProblems(MAIL_CATALOGS.en, MAIL_CATALOGS)).toEqual([]);
  });

  it('say how long until a reminder in the largest whole unit, with plural forms', () => {
    const en = mailTexts('en', 'en-US');
    expect([1440, 2880, 60, 120, 90].map((m) => en.reminderIn(m))).toEqual([
      'It starts in 1 day.',
      'It starts in 2 days.',
      'It starts in 1 hour.',
      'It starts in 2 hours.',
      'It starts in 90 minutes.',
    ]);
    expect(mailTexts('de', 'de-DE').reminderIn(2880)).toBe('Sie beginnt in 2 Tagen.');
    const pl = mailTexts('pl', 'pl-PL');
    expect([60, 120, 300].map((m) => pl.reminderIn(m))).toEqual([
      'Zaczyna się za 1 godzinę.',
      'Zaczyna się za 2 godziny.',
      'Zaczyna się za 5 godzin.',
    ]);
    expect(mailTexts('ar', 'ar-u-nu-latn').reminderIn(120)).toBe('يبدأ بعد ساعتين.');
  });
});
