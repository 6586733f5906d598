import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { makeUser, memberSpeaking, PanelClient } from '../../test/helpers/panel-client.js';
import { executeCommand } from '../cli/commands.js';
import { openWritePath } from '../write-path.js';
import { auditPage, recordAudit } from './audit.service.js';

/**
 * The audit log (docs/audit-log.md): each change is logged in its own transaction with who made
 * it (a panel user, an API key, the CLI), bookings through their history; owners read it,
 * filtered and as CSV; other roles do not.
 */
let s: Studio;
let owner: PanelClient;
let ownerId: string;
beforeAll(async () => {
  s = await openStudio();
  const user = await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'owner' }]);
  ownerId = user.id;
  owner = await PanelClient.signedIn(s.t.app, s.t.db, user);
});
afterAll(() => s.t.close());

const log = (filters: Parameters<typeof auditPage>[2] = {}) =>
  auditPage(s.t.db, s.t.workspace.id, filters, { limit: 100, offset: 0 });

describe('the audit log', () => {
  it('records API, panel and CLI changes with their actor, and bookings from their history', async () => {
    const { t } = s;
    expect((await t.call('PATCH', '/workspace', { min_notice_minutes: 30 })).statusCode).toBe(200);
    // A refused change (a 422) logs nothing.
    expect((await t.call('POST', '/webhooks', { url: 'not a url' })).statusCode).toBe(422);
    await owner.get('/panel/settings/developers/api-keys');
    expect((await owner.post('/panel/settings/developers/api-keys', { name: 'Zapier' })).statusCode).toBe(
      200,
    );
    const cli = await executeCommand(
      t.database,
      { kind: 'key-create', workspace: t.workspace.slug, name: 'From CLI' },
      Date.now(),
    );
    const booking = await book(t, bookingBody(s.f, at(s.nextDay(), '10:00')));

    const entries = await log();
    const brief = entries.map((e) => [e.action, e.actor.type, e.actor.name]);
    expect(brief).toEqual(
      expect.arrayContaining([
        ['settings.workspace_updated', 'api_key', t.apiKey.name],
        ['api_key.created', 'user', expect.stringContaining('@example.com')],
        ['api_key.created', 'cli', 'CLI'],
        ['booking.created', 'api_key', t.apiKey.name],
      ]),
    );
    expect(brief.some(([action]) => action === 'webhook.created')).toBe(false);
    expect(entries.find((e) => e.action === 'api_key.created' && e.actor.type === 'cli')?.subject_uuid).toBe(
      (cli as { api_key: { uuid: string } }).api_key.uuid,
    );
    expect(entries.find((e) => e.action === 'booking.created')?.subject_uuid).toBe(booking.uuid);
    // Newest first.
    const times = entries.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // Never a secret in the details.
    expect(JSON.stringify(entries)).not.toMatch(/secret_[A-Za-z0-9_-]{43}/);
  });

  it('filters by group, actor and day, and a change that rolls back leaves no entry', async () => {
    expect((await log({ actionPrefix: 'api_key.' })).every((e) => e.action.startsWith('api_key.'))).toBe(
      true,
    );
    expect((await log({ actorType: 'cli' })).map((e) => e.action)).toEqual(['api_key.created']);
    expect(await log({ before: new Date('2000-01-01T00:00:00Z') })).toEqual([]);

    const before = (await log()).length;
    await expect(
      openWritePath(s.t.db).uow.run(s.t.workspace.id, async (tx) => {
        await recordAudit(
          tx,
          s.t.workspace.id,
          { type: 'user', id: ownerId },
          'settings.workspace_updated',
          null,
        );
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await log()).length).toBe(before);
  });

  it('shows owners the log with filters and a CSV; admins and staff get 403', async () => {
    const page = await owner.get('/panel/settings/audit?group=api_key');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('api_key.created');
    expect(page.body).not.toContain('booking.created');
    const csv = await owner.get('/panel/settings/audit.csv?actor=cli');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.startsWith('\ufeffat,actor_type,actor,action,subject_uuid,details')).toBe(true);
    expect(csv.body.trim().split('\r\n')).toHaveLength(2);
    for (const role of ['admin', 'staff'] as const) {
      const other = await PanelClient.signedIn(
        s.t.app,
        s.t.db,
        await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role }]),
      );
      expect((await other.get('/panel/settings/audit')).statusCode).toBe(403);
      expect((await other.get('/panel/settings/audit.csv')).statusCode).toBe(403);
    }
  });

  it('records the notification, text message and quiet hours settings, never a credential', async () => {
    await owner.get('/panel/settings/notifications');
    const saved = await owner.post('/panel/settings/notifications', {
      customer_emails: ['confirmed', 'reminder'],
      reminder_hours: ['24'],
      sender_name: 'Studio',
      reply_to: '',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    await owner.get('/panel/settings/notifications/texts');
    const texts = await owner.post('/panel/settings/notifications/texts', {
      enabled: 'on',
      provider: 'none',
      customer_texts: ['confirmed'],
      reminder_hours: ['24'],
      sender: 'Studio',
      consent: 'optional',
      twilio_account_sid: '',
      twilio_auth_token: 'not-a-real-token-but-secret',
      gateway_url: '',
      gateway_secret: '',
    });
    expect(texts.statusCode, texts.body).toBe(303);
    const quiet = await owner.post(`/panel/settings/notifications/texts/locations/${s.f.location.id}`, {
      start: '21:00',
      end: '08:00',
    });
    expect(quiet.statusCode, quiet.body).toBe(303);
    // Refused (a quiet time that is no time): nothing logged.
    const refused = await owner.post(`/panel/settings/notifications/texts/locations/${s.f.location.id}`, {
      start: 'late',
      end: '08:00',
    });
    expect(refused.statusCode).toBe(422);

    const entries = await log({ actionPrefix: 'settings.' });
    const by = (action: string) => entries.filter((e) => e.action === action);
    expect(by('settings.notifications_updated')).toHaveLength(1);
    expect(by('settings.notifications_updated')[0]!.actor.type).toBe('user');
    expect(by('settings.text_messages_updated')).toHaveLength(1);
    expect(by('settings.quiet_hours_updated').map((e) => e.subject_uuid)).toEqual([s.f.location.id]);
    expect(JSON.stringify(entries)).not.toContain('not-a-real-token-but-secret');
  });
});

describe('the audit log in other languages', () => {
  it('speaks German to a German-speaking owner: filters, columns, who made a change', async () => {
    const german = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'owner', 'de');
    const page = (await german.get('/panel/settings/audit?group=api_key')).body;
    expect(page).toContain('<h1>Protokoll</h1>');
    expect(page).toContain('<option value="api_key" selected>API-Schlüssel</option>');
    expect(page).toContain('<th scope="col">Wann (UTC)</th>');
    expect(page).toContain('Als CSV herunterladen');
    expect(page).toMatch(/<div class="muted">(Panel-Konto|Betreiber|API-Schlüssel)<\/div>/);
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(s.t.app, s.t.db, s.t.workspace.id, 'owner', 'ar');
    const page = (await arabic.get('/panel/settings/audit')).body;
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain('<th scope="col">التفاصيل</th>');
  });
});
