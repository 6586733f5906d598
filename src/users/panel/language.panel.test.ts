import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { createLocation, createService, createStaffer } from '../../../test/helpers/factories.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';

/**
 * Each panel user's language, through the real app: picked on their own account page (a
 * CSRF-protected form, saved through the users service), else the browser's Accept-Language,
 * else the workspace's locale, else English; Arabic lays the panel out right to left.
 */
const clock = new FixedClock('2026-03-25T09:00:00Z');
let t: TestApp;

const ACCOUNT = '/panel/account/password';

async function member(): Promise<PanelClient> {
  return PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
  );
}

/** A GET as a browser that asks for `acceptLanguage`. */
async function getWith(client: PanelClient, url: string, acceptLanguage: string) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: {
      cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      'accept-language': acceptLanguage,
    },
  });
}

const htmlTag = (body: string) => /<html[^>]*>/.exec(body)?.[0];

beforeAll(async () => {
  t = await buildTestApp({ clock });
  const location = await createLocation(t.db, t.workspace.id, { name: 'Mitte', timezone: 'Europe/Berlin' });
  const service = await createService(t.db, t.workspace.id, [location.id], { name: 'Haircut' });
  await createStaffer(t.db, t.workspace.id, location.id, [service.id], { firstName: 'Anna' });
});
afterAll(() => t.close());

describe('the panel language', () => {
  it('is English for a user with no choice and no Accept-Language', async () => {
    const owner = await member();
    const home = await owner.get('/panel');
    expect(htmlTag(home.body)).toBe('<html lang="en">');
    expect(home.body).toContain('<h2 id="today">Today</h2>');
    const account = await owner.get(ACCOUNT);
    expect(account.body).toContain('<h2 id="language">Language</h2>');
    expect(account.body).toContain('<option value selected>As my browser says</option>');
    expect(account.body).toContain('<option value="de">Deutsch</option>');
  });

  it('is the one a user picked: German on Home and on the calendar, dates in German', async () => {
    const owner = await member();
    await owner.get(ACCOUNT);
    const saved = await owner.post('/panel/account/language', { language: 'de' });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${ACCOUNT}?notice=language`);
    const account = await owner.get(`${ACCOUNT}?notice=language`);
    expect(account.body).toContain('Ihre Sprache ist gespeichert.');
    expect(account.body).toMatch(/<option value="de" selected(="")?>Deutsch<\/option>/);

    const home = await owner.get('/panel');
    expect(htmlTag(home.body)).toBe('<html lang="de">');
    expect(home.body).toContain('<h2 id="today">Heute</h2>');
    expect(home.body).toContain('Ihre Buchungsseite');
    expect(home.body).toContain('<a href="/panel/calendar">Kalender</a>');
    expect(home.body).toContain('Abmelden');
    expect(home.body).not.toContain('Open the calendar');

    const calendar = await owner.get('/panel/calendar?date=2026-03-25&view=day');
    expect(calendar.statusCode).toBe(200);
    expect(calendar.body).toContain('<h1>Kalender</h1>');
    expect(calendar.body).toContain('Mittwoch, 25. März 2026');
    expect(calendar.body).toContain('0 Buchungen angezeigt');
    expect(calendar.body).toContain('Neue Buchung');
    // The island's texts travel with the page, not in a catalog the browser loads.
    expect(calendar.body).toContain('data-texts="Verschieben nach…');

    // Their choice wins over the browser's.
    expect((await getWith(owner, '/panel', 'fr-FR,fr;q=0.9')).body).toContain('<h2 id="today">Heute</h2>');
  });

  it('lays the panel out right to left in Arabic', async () => {
    const owner = await member();
    await owner.submit(ACCOUNT, { language: 'ar' }, '/panel/account/language');
    const home = await owner.get('/panel');
    expect(htmlTag(home.body)).toBe('<html lang="ar" dir="rtl">');
    expect(home.body).toContain('<h2 id="today">اليوم</h2>');
    const calendar = await owner.get('/panel/calendar?date=2026-03-25&view=day');
    expect(htmlTag(calendar.body)).toBe('<html lang="ar" dir="rtl">');
    expect(calendar.body).toContain('<h1>التقويم</h1>');
  });

  it('follows Accept-Language when the user picked none, and again after they reset it', async () => {
    const owner = await member();
    expect((await getWith(owner, '/panel', 'zh;q=1, pl;q=0.8')).body).toContain('<h2 id="today">Dziś</h2>');
    await owner.submit(ACCOUNT, { language: 'tr' }, '/panel/account/language');
    expect((await getWith(owner, '/panel', 'pl')).body).toContain('<h2 id="today">Bugün</h2>');
    await owner.submit(ACCOUNT, { language: '' }, '/panel/account/language');
    expect((await getWith(owner, '/panel', 'pl')).body).toContain('<h2 id="today">Dziś</h2>');
  });

  it('refuses a language the panel does not have, and a form from elsewhere', async () => {
    const owner = await member();
    await owner.get(ACCOUNT);
    const bad = await owner.post('/panel/account/language', { language: 'xx' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Choose one of the listed languages.');
    const forged = await owner.post('/panel/account/language', { language: 'de' }, { csrf: null });
    expect(forged.statusCode).toBe(403);
    expect((await owner.get('/panel')).body).toContain('<h2 id="today">Today</h2>');
  });

  it('signs in in the browser’s language, English without one', async () => {
    const visitor = new PanelClient(t.app);
    expect((await visitor.get('/panel/sign-in')).body).toContain('<h1>Sign in</h1>');
    const german = await getWith(visitor, '/panel/sign-in', 'de-DE,de;q=0.9,en;q=0.5');
    expect(htmlTag(german.body)).toBe('<html lang="de">');
    expect(german.body).toContain('<h1>Anmelden</h1>');
    const arabic = await getWith(visitor, '/panel/sign-in', 'ar');
    expect(htmlTag(arabic.body)).toBe('<html lang="ar" dir="rtl">');
  });

  it('falls back to the workspace locale for a user with no choice and no Accept-Language', async () => {
    const owner = await member();
    expect((await t.call('PATCH', '/workspace', { locale: 'nl-NL' })).statusCode).toBe(200);
    expect((await owner.get('/panel')).body).toContain('<h2 id="today">Vandaag</h2>');
    expect((await t.call('PATCH', '/workspace', { locale: 'en-US' })).statusCode).toBe(200);
  });
});
