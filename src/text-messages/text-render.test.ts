import { describe, expect, it } from 'vitest';
import { catalogProblems } from '../platform/message-format.js';
import { countSegments } from './segments.rules.js';
import { renderText, TEXT_CATALOGS, type TextSnapshot } from './text-render.js';

const SAMPLE: TextSnapshot = {
  workspaceName: 'Studio Nord',
  workspaceSlug: 'studio-nord',
  locale: 'en-US',
  language: null,
  manageToken: 'tok123',
  services: 'Haircut',
  location: 'Main Street 1',
  zone: 'Europe/Berlin',
  start: '2026-09-10T12:00:00Z',
};

describe('text templates', () => {
  it('every language has the English keys with the same placeholders', () => {
    const { en, ...others } = TEXT_CATALOGS;
    expect(catalogProblems(en, others)).toEqual([]);
  });

  it('a confirmation names the service, the time with its zone, the place and the manage link', () => {
    const body = renderText('confirmed', SAMPLE, 'https://book.example');
    expect(body).toBe(
      'Studio Nord: Haircut on Thu, Sep 10, 2:00 PM GMT+2, Main Street 1 is booked. Manage: https://book.example/book/studio-nord/manage/tok123\nSTOP to opt out',
    );
    expect(countSegments(body)).toMatchObject({ encoding: 'gsm7', segments: 1 });
  });

  it('speaks the language booked in, its manage link opening in it', () => {
    const body = renderText('reminder', { ...SAMPLE, language: 'de' }, 'https://book.example');
    expect(body).toContain('Erinnerung, Haircut am Do., 10. Sept., 14:00 MESZ');
    expect(body).toContain('/manage/tok123?lang=de');
    expect(body.endsWith('STOP zum Abmelden')).toBe(true);
    // Polish letters outside GSM-7 make a text UCS-2.
    const pl = renderText('confirmed', { ...SAMPLE, language: 'pl' }, 'https://book.example');
    expect(countSegments(pl).encoding).toBe('ucs2');
  });
});
