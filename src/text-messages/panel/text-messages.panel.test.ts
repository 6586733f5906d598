import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingFixture } from '../../../test/helpers/booking-fixture.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';
import { loadConfig } from '../../config.js';
import { panelText } from '../../panel-kit/i18n.js';
import { keyFromSecret, secretBox } from '../../platform/secrets.js';
import type { UserRow } from '../../users/users.repository.js';
import { credentialsContext } from '../text-providers.service.js';
import { textOptOutWords } from './text-messages.texts.js';

const PAGE = '/panel/settings/notifications/texts';
const SECRET_KEY = 'panel-test-secret-key-of-32-characters-or-more';
const SID = `AC${'a1'.repeat(16)}`;
const TOKEN = 'f0'.repeat(16);

let t: TestApp;
let admin: UserRow;
let staff: UserRow;
beforeAll(async () => {
  t = await buildTestApp({
    clock: new FixedClock('2026-09-01T08:00:00Z'),
    config: { ...loadConfig({}), worker: 'off', apiRateLimitPerMinute: 0, secretKey: SECRET_KEY },
  });
  await bookingFixture(t);
  admin = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]);
  staff = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
});
afterAll(() => t.close());

const row = () =>
  t.db
    .selectFrom('workspaces')
    .select(['text_settings', 'text_credentials'])
    .where('id', '=', t.workspace.id)
    .executeTakeFirstOrThrow();

describe('Settings → Notifications → Text messages', () => {
  it('is for owners and admins, linked from Notifications', async () => {
    const staffClient = await PanelClient.signedIn(t.app, t.db, staff, t.workspace.id);
    expect((await staffClient.get(PAGE)).statusCode).toBe(403);
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    expect((await client.get('/panel/settings/notifications')).body).toContain(`href="${PAGE}"`);
    const page = await client.get(PAGE);
    expect(page.statusCode).toBe(200);
    // Off by default, provider none.
    expect(page.body).toMatch(/name="enabled" value="on"\/?>/);
    expect(page.body).toMatch(/<option value="none" selected/);
  });

  it('saves Twilio with its auth token sealed at rest, never shown again; refuses bad fields', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const refused = await client.submit(PAGE, {
      enabled: 'on',
      provider: 'twilio',
      customer_texts: ['confirmed', 'reminder'],
      reminder_hours: ['24', ''],
      sender: '12345',
      twilio_account_sid: 'nope',
      twilio_auth_token: '',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('An Account SID is AC and 32 hex digits.');
    expect(refused.body).toContain('Enter the auth token.');
    const saved = await client.submit(PAGE, {
      enabled: 'on',
      provider: 'twilio',
      customer_texts: ['confirmed', 'reminder'],
      reminder_hours: ['24', '2'],
      whatsapp: 'on',
      consent: 'required',
      sender: '+14155550100',
      twilio_account_sid: SID,
      twilio_auth_token: TOKEN,
    });
    expect(saved.statusCode).toBe(303);
    const stored = await row();
    expect(stored.text_settings).toMatchObject({
      enabled: true,
      provider: 'twilio',
      whatsapp: true,
      consent: 'required',
      reminder_minutes: [1440, 120],
      twilio_account_sid: SID,
    });
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    const opened = secretBox(keyFromSecret(SECRET_KEY)).open(
      stored.text_credentials!,
      credentialsContext(t.workspace.id),
    );
    expect(JSON.parse(opened)).toEqual({ twilioAuthToken: TOKEN });
    const page = await client.get(PAGE);
    expect(page.body).not.toContain(TOKEN);
    expect(page.body).toContain('Saved, encrypted. Leave empty to keep it.');
    // Saving again without the token keeps it.
    await client.submit(PAGE, {
      enabled: 'on',
      provider: 'twilio',
      customer_texts: ['confirmed'],
      sender: '+14155550100',
      twilio_account_sid: SID,
    });
    expect((await row()).text_credentials).toBe(stored.text_credentials);
  });

  it('refuses a gateway URL on a private address (the webhooks’ SSRF guard)', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const refused = await client.submit(PAGE, {
      enabled: 'on',
      provider: 'gateway',
      gateway_url: 'http://127.0.0.1:9/sms',
      gateway_secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain(
      'The address must not point to a private, loopback or link-local network.',
    );
  });

  it('previews each text with its segments, queues a test message and lists it in the log', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const page = await client.get(`${PAGE}?lang=uk`);
    expect(page.body).toMatch(/\d+ segments? · Unicode \(70\/67\)/);
    const en = await client.get(`${PAGE}?lang=en`);
    expect(en.body).toMatch(/\d+ segments? · GSM-7 \(160\/153\)/);
    const queued = await client.submit(`${PAGE}`, { phone: '+447911123456' }, `${PAGE}/test`);
    expect(queued.statusCode).toBe(303);
    const log = await client.get(PAGE);
    expect(log.body).toContain('+447911123456');
    expect(log.body).toContain('Test message');
    const bad = await client.submit(`${PAGE}`, { phone: '12' }, `${PAGE}/test`);
    expect(bad.statusCode).toBe(422);
  });
});

describe('quiet hours per location', () => {
  it('are saved in the location’s own time; the default is stored as none; bad times are refused', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const page = await client.get(PAGE);
    expect(page.body).toContain('Europe/Berlin');
    expect(page.body).toMatch(/name="start"[^>]*value="21:00"/);
    const location = await t.db
      .selectFrom('locations')
      .select('id')
      .where('workspace_id', '=', t.workspace.id)
      .executeTakeFirstOrThrow();
    const action = `${PAGE}/locations/${location.id}`;
    const quiet = () =>
      t.db
        .selectFrom('locations')
        .select('text_quiet_hours')
        .where('id', '=', location.id)
        .executeTakeFirstOrThrow();
    expect((await client.submit(PAGE, { start: '22:00', end: '07:30' }, action)).statusCode).toBe(303);
    expect((await quiet()).text_quiet_hours).toBe('22:00-07:30');
    expect((await client.get(PAGE)).body).toMatch(/name="start"[^>]*value="22:00"/);
    const bad = await client.submit(PAGE, { start: '25:00', end: '07:30' }, action);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Enter both times as HH:MM');
    await client.submit(PAGE, { start: '21:00', end: '08:00' }, action);
    expect((await quiet()).text_quiet_hours).toBeNull();
  });
});

describe('on PostgreSQL without SECRET_KEY', () => {
  it('credentials cannot be saved, with a clear message', async () => {
    const pg = await buildTestApp({
      database: t.database,
      config: {
        ...loadConfig({}),
        worker: 'off',
        databaseUrl: 'postgres://example.invalid/db',
        secretKey: undefined,
      },
    });
    const user = await makeUser(pg.db, [{ workspaceId: pg.workspace.id, role: 'admin' }]);
    const client = await PanelClient.signedIn(pg.app, pg.db, user, pg.workspace.id);
    const page = await client.get(PAGE);
    expect(page.body).toContain('This server has no SECRET_KEY');
    const refused = await client.submit(PAGE, {
      enabled: 'on',
      provider: 'twilio',
      sender: '+14155550100',
      twilio_account_sid: SID,
      twilio_auth_token: TOKEN,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain(
      'The server has no key to store credentials with: the administrator must set SECRET_KEY.',
    );
    await pg.app.close();
  });
});

describe('Settings → Text messages in other languages', () => {
  it('speaks German to a German-speaking admin: settings, quiet hours, preview and log', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    const page = (await german.get(PAGE)).body;
    expect(page).toContain('<h1>Textnachrichten</h1>');
    expect(page).toContain('Textnachrichten an Kund:innen senden');
    expect(page).toContain('Keiner (nur protokollieren)');
    expect(page).toContain('Ruhezeiten speichern');
    expect(page).toMatch(/\d Segmente? · (GSM-7|Unicode)/);
    const notifications = (await german.get('/panel/settings/notifications')).body;
    expect(notifications).toContain(
      'Textnachrichten (SMS und WhatsApp): Anbieter, Testnachricht und Nachrichtenprotokoll',
    );
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const page = (await arabic.get(PAGE)).body;
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain('<h1>الرسائل النصية</h1>');
  });
});

describe('the customer page’s text opt-out line', () => {
  it('is worded in the reader’s language', () => {
    const at = new Date('2026-03-01T10:00:00Z');
    expect(textOptOutWords({ optedOut: true, keyword: 'STOP', at }, panelText('de', 'de-DE').t)).toEqual({
      label: 'Textnachrichten',
      value: 'Abgemeldet (antwortete „STOP“ am 2026-03-01): erhält keine Textnachrichten',
    });
    expect(textOptOutWords(undefined, panelText('ar', 'ar-u-nu-latn').t).value).toBe('يتلقى الرسائل النصية');
  });
});
