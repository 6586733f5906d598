import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';
import { LAST_USED_EVERY_MS } from '../../app/api/api-auth.js';
import type { UserRow } from '../../users/users.repository.js';

const KEYS = '/panel/settings/developers/api-keys';

let t: TestApp;
let owner: UserRow;
let clock = Date.parse('2026-06-01T09:00:00Z');
beforeAll(async () => {
  t = await buildTestApp({ clock: { now: () => clock } });
  owner = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]);
});
afterAll(() => t.close());

describe('Settings -> Developers -> API keys', () => {
  it('creates a key shown once, lists who made it and when it was last used, deletes it after a confirm step', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, owner);
    const created = await client.submit(KEYS, { name: 'Website booking form' });
    expect(created.statusCode).toBe(200);
    const secret = /<code id="secret-value">(secret_[A-Za-z0-9_-]{43})<\/code>/.exec(created.body)?.[1];
    expect(secret).toBeDefined();
    expect(created.body).toContain('/assets/islands/copy-text.js');
    const ping = () => t.call('GET', '/ping', undefined, { authorization: `Bearer ${secret}` });
    expect((await ping()).statusCode).toBe(200);

    // The list never shows the secret again; it shows its author and when it was last used.
    const listed = await client.get(KEYS);
    expect(listed.body).not.toContain(secret);
    const row = /<tr><td data-label="Name">Website booking form<\/td>.*?<\/tr>/.exec(listed.body)?.[0] ?? '';
    expect(row).toContain(`secret_…${secret!.slice(-4)}`);
    expect(row).toContain(owner.email);
    expect(row).toContain('2026-06-01 09:00 UTC');

    const keyId =
      /api-keys\/([0-9a-f-]{36})\/delete">Delete<span class="skip-label"> key Website booking form/.exec(
        listed.body,
      )?.[1];
    const confirm = await client.get(`${KEYS}/${keyId}/delete`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Delete the key “Website booking form”?');
    expect((await ping()).statusCode).toBe(200);
    const deleted = await client.post(`${KEYS}/${keyId}/delete`);
    expect(deleted.headers.location).toBe(`${KEYS}?notice=deleted`);
    const refused = await ping();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: 'Bearer token is invalid', code: 'invalid_token' });
    expect((await client.get(KEYS)).body).not.toContain('<td data-label="Name">Website booking form</td>');
  });

  it('writes last used at most once a minute per key', async () => {
    const lastUsed = () =>
      t.db
        .selectFrom('api_keys')
        .select('last_used_at')
        .where('id', '=', t.apiKey.uuid)
        .executeTakeFirstOrThrow()
        .then((row) => row.last_used_at?.getTime());
    clock = Date.parse('2026-06-02T10:00:00Z');
    await Promise.all([t.call('GET', '/ping'), t.call('GET', '/ping'), t.call('GET', '/ping')]);
    // Written after the answer was sent (onResponse), so the read waits for it.
    await vi.waitFor(async () => expect(await lastUsed()).toBe(clock));
    const first = clock;
    clock += LAST_USED_EVERY_MS - 1000;
    await t.call('GET', '/ping');
    expect(await lastUsed()).toBe(first);
    clock += 2000;
    await t.call('GET', '/ping');
    await vi.waitFor(async () => expect(await lastUsed()).toBe(clock));
  });

  it('keeps the typed name next to its error, and prints HTML typed into a name as text', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, owner);
    const long = 'x'.repeat(101);
    const refused = await client.submit(KEYS, { name: long });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(
      /<input id="f-name" name="name" type="text" value="x{101}"[^>]*aria-invalid="true"/,
    );
    expect(refused.body).toContain(
      '<p class="error" id="f-name-error">The name must be at most 100 characters.</p>',
    );
    const blank = await client.submit(KEYS, { name: '   ' });
    expect(blank.body).toContain('This field is required.');

    const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const created = await client.submit(KEYS, { name: evil });
    expect(created.statusCode).toBe(200);
    const listed = await client.get(KEYS);
    expect(listed.body).not.toContain('<script>alert(1)');
    expect(listed.body).not.toContain('<img src=x');
    expect(listed.body).toContain('&lt;script>alert(1)&lt;/script>&lt;img src=x onerror=alert(2)>');
  });
});

describe('Settings → API keys in other languages', () => {
  it('speaks German to a German-speaking owner: the secret shown once, the list, the delete step', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'de');
    const created = await german.submit(KEYS, { name: 'Kassensystem' });
    expect(created.body).toContain('<h2>Geheimnis von „Kassensystem“</h2>');
    expect(created.body).toContain('<strong>nur dieses eine Mal</strong>');
    expect(created.body).toContain('<th scope="col">Zuletzt benutzt</th>');
    const id =
      /api-keys\/([0-9a-f-]{36})\/delete">Löschen<span class="skip-label"> Schlüssel Kassensystem</.exec(
        created.body,
      )![1];
    const confirm = await german.get(`${KEYS}/${id}/delete`);
    expect(confirm.body).toContain('<h1>Den Schlüssel „Kassensystem“ löschen?</h1>');
    const deleted = await german.post(`${KEYS}/${id}/delete`);
    expect((await german.get(deleted.headers.location as string)).body).toContain(
      'Der Schlüssel ist gelöscht.',
    );
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const page = (await arabic.get(KEYS)).body;
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain('<h1>مفاتيح API</h1>');
  });
});
