import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { makeUser, PANEL_ORIGIN, PanelClient, TEST_PASSWORD } from '../../../test/helpers/panel-client.js';
import { createApiKey } from '../../api-keys/api-keys.service.js';
import type { UserRow } from '../../users/users.repository.js';
import { createUser, deleteUser } from '../../users/users.service.js';
import { createWebhook } from '../../webhooks/webhooks.service.js';
import { openWritePath } from '../../write-path.js';

/**
 * The panel surface over HTTP (app.inject on the real app): security headers, HTML errors,
 * sign-in and its limits, sessions, CSRF and Origin, roles, and tenant isolation.
 */

let t: TestApp;
let owner: UserRow;
let staff: UserRow;
let otherOwner: UserRow;
let other: Awaited<ReturnType<typeof createOtherWorkspace>>;

beforeAll(async () => {
  t = await buildTestApp({ config: { webhooksAllowPrivate: true } });
  other = await createOtherWorkspace(t.db);
  owner = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]);
  staff = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
  otherOwner = await makeUser(t.db, [{ workspaceId: other.workspace.id, role: 'owner' }]);
});
afterAll(() => t.close());

const keyCount = async (workspaceId: string) =>
  (await t.db.selectFrom('api_keys').select('id').where('workspace_id', '=', workspaceId).execute()).length;

describe('every panel answer is HTML with the panel headers', () => {
  it('sends CSP frame-ancestors none, X-Frame-Options DENY and no-store', async () => {
    const response = await new PanelClient(t.app).get('/panel/sign-in');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['content-security-policy']).toMatch(/script-src 'nonce-[^']+' 'self'/);
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown page, a bad uuid and a refused form with an HTML page, never JSON', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, owner);
    for (const url of ['/panel/no-such-page', '/panel/settings/developers/webhooks/not-a-uuid']) {
      const response = await client.get(url);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(response.body).toContain('<h1>Page not found</h1>');
    }
    const refused = await client.post('/panel/settings/developers/api-keys', { name: 'x' }, { csrf: null });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.body).toContain('<h1>Not allowed</h1>');
  });
});

describe('sign-in', () => {
  it('answers a wrong password and an unknown email alike, keeps the email, never the password', async () => {
    const client = new PanelClient(t.app);
    await client.get('/panel/sign-in');
    const wrong = await client.post('/panel/sign-in', { email: owner.email, password: 'not the password' });
    const unknown = await client.post('/panel/sign-in', {
      email: 'nobody@example.com',
      password: 'not the password',
    });
    expect(wrong.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    const message = (body: string) => /<p class="error"[^>]*>([^<]+)</.exec(body)?.[1];
    expect(message(wrong.body)).toBe('The email or password is not correct.');
    expect(message(unknown.body)).toBe(message(wrong.body));
    expect(wrong.body).toContain(`value="${owner.email}"`);
    expect(wrong.body).not.toContain('not the password');
    expect(client.cookies.has('kairos_session')).toBe(false);
  });

  it('sets an HttpOnly SameSite=Lax session cookie on /panel; sign-out refuses that cookie at once', async () => {
    const client = new PanelClient(t.app);
    await client.get('/panel/sign-in?next=/panel/team');
    const response = await client.post('/panel/sign-in', {
      email: owner.email.toUpperCase(),
      password: TEST_PASSWORD,
      next: '/panel/team',
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/panel/team');
    const cookie = String(response.headers['set-cookie'])
      .split(/,(?=\s*\w+=)/)
      .find((c) => c.includes('kairos_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/panel/);
    expect(cookie).not.toMatch(/Secure/);
    const oldCookie = client.cookies.get('kairos_session') as string;
    expect((await client.get('/panel')).statusCode).toBe(200);

    expect((await client.post('/panel/sign-out')).headers.location).toBe('/panel/sign-in?notice=signed-out');
    const replay = await t.app.inject({ url: '/panel', headers: { cookie: `kairos_session=${oldCookie}` } });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toMatch(/^\/panel\/sign-in/);
  });

  it('ends a session on every process at once: sign-out on one app, deleting the user on another', async () => {
    // Two apps on one store stand for two API processes behind a balancer.
    const second = await buildTestApp({ database: t.database });
    try {
      const leaving = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]);
      const onFirst = await PanelClient.signedIn(t.app, t.db, leaving);
      const onSecond = new PanelClient(second.app);
      onSecond.cookies.set('kairos_session', onFirst.cookies.get('kairos_session') as string);
      expect((await onSecond.get('/panel')).statusCode).toBe(200);
      await onFirst.get('/panel');
      await onFirst.post('/panel/sign-out');
      expect((await onSecond.get('/panel')).statusCode).toBe(303);

      const other = await PanelClient.signedIn(t.app, t.db, leaving);
      expect((await other.get('/panel')).statusCode).toBe(200);
      await deleteUser(t.db, leaving.email);
      expect((await other.get('/panel')).statusCode).toBe(303);
    } finally {
      await second.app.close();
    }
  });

  it('follows only panel paths after sign-in', async () => {
    const client = new PanelClient(t.app);
    await client.get('/panel/sign-in');
    for (const next of ['https://evil.example/', '//evil.example/panel', '/api/public/v2/ping']) {
      const response = await client.post('/panel/sign-in', {
        email: owner.email,
        password: TEST_PASSWORD,
        next,
      });
      expect(response.headers.location).toBe('/panel');
    }
  });

  it('limits attempts per account, whatever the address, and per address, whatever the account', async () => {
    const client = new PanelClient(t.app);
    await client.get('/panel/sign-in');
    const attempt = (email: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/panel/sign-in',
        remoteAddress,
        headers: {
          origin: PANEL_ORIGIN,
          cookie: `kairos_csrf=${client.cookies.get('kairos_csrf')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({ _csrf: client.csrf!, email, password: 'wrong password!' }).toString(),
      });
    const account = 'target@example.com';
    const perAccount = [];
    for (let i = 0; i < 11; i++) perAccount.push((await attempt(account, `10.0.1.${i + 1}`)).statusCode);
    expect(perAccount.slice(0, 10)).toEqual(Array(10).fill(422));
    const limited = await attempt(account, '10.0.2.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^text\/html/);
    expect(limited.headers['retry-after']).toBeDefined();

    const perAddress = [];
    for (let i = 0; i < 31; i++)
      perAddress.push((await attempt(`spray-${i}@example.com`, '10.0.3.1')).statusCode);
    expect(perAddress.slice(0, 30).every((status) => status === 422)).toBe(true);
    expect(perAddress[30]).toBe(429);
    // Each refused sign-in hashes a password on purpose (~0.25 s of one core): 42 of them.
  }, 120_000);

  it('sends a user with a one-time password to choose their own first', async () => {
    const { user, oneTimePassword } = await createUser(t.db, { email: 'first@example.com' }, Date.now());
    await t.db
      .insertInto('memberships')
      .values({ workspace_id: t.workspace.id, user_id: user.id, role: 'owner' })
      .execute();
    const client = new PanelClient(t.app);
    await client.get('/panel/sign-in');
    await client.post('/panel/sign-in', { email: 'first@example.com', password: oneTimePassword as string });
    const home = await client.get('/panel');
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe('/panel/account/password');
    await client.get('/panel/account/password');
    const mismatch = await client.post('/panel/account/password', {
      current_password: oneTimePassword as string,
      password: 'my own long password',
      password_confirmation: 'my own long passwordX',
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.body).toContain('The two new passwords differ.');
    const saved = await client.post('/panel/account/password', {
      current_password: oneTimePassword as string,
      password: 'my own long password',
      password_confirmation: 'my own long password',
    });
    // The first sign-in ends on Home, not on the password form.
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/panel?notice=password-set');
    const welcome = await client.get(saved.headers.location as string);
    expect(welcome.statusCode).toBe(200);
    expect(welcome.body).toContain('Your password is set.');
    // A later change of one's own password stays on the form.
    const again = await client.submit('/panel/account/password', {
      current_password: 'my own long password',
      password: 'another long password',
      password_confirmation: 'another long password',
    });
    expect(again.headers.location).toBe('/panel/account/password?notice=changed');
  });
});

describe('CSRF and Origin', () => {
  it('refuses a cross-site POST without a token, with a foreign Origin, or with no Origin; nothing changes', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, owner);
    await client.get('/panel/settings/developers/api-keys');
    const before = await keyCount(t.workspace.id);
    const url = '/panel/settings/developers/api-keys';
    const attempts = [
      await client.post(url, { name: 'no token' }, { csrf: null }),
      await client.post(url, { name: 'forged token' }, { csrf: 'forged' }),
      await client.post(url, { name: 'evil origin' }, { origin: 'https://evil.example' }),
      await client.post(url, { name: 'no origin' }, { origin: null }),
    ];
    expect(attempts.map((response) => response.statusCode)).toEqual([403, 403, 403, 403]);
    expect(await keyCount(t.workspace.id)).toBe(before);
    const ok = await client.post(url, { name: 'from the page' });
    expect(ok.statusCode).toBe(200);
    expect(await keyCount(t.workspace.id)).toBe(before + 1);
  });

  it('marks cookies Secure and checks against PUBLIC_URL when it is https', async () => {
    const secure = await buildTestApp({
      database: t.database,
      config: { publicUrl: 'https://panel.example' },
    });
    try {
      const client = new PanelClient(secure.app);
      const page = await client.get('/panel/sign-in');
      expect(String(page.headers['set-cookie'])).toMatch(/kairos_csrf=.*Secure/);
      const fromLocal = await client.post('/panel/sign-in', { email: owner.email, password: TEST_PASSWORD });
      expect(fromLocal.statusCode).toBe(403);
      const signedIn = await client.post(
        '/panel/sign-in',
        { email: owner.email, password: TEST_PASSWORD },
        { origin: 'https://panel.example' },
      );
      expect(signedIn.statusCode).toBe(303);
      expect(String(signedIn.headers['set-cookie'])).toMatch(/kairos_session=[^;]+;.*Secure/);
    } finally {
      await secure.app.close();
    }
  });
});

describe('roles and tenants', () => {
  it('answers a staff session 403 or 404 on every owner page, GET and POST, and changes nothing', async () => {
    const key = await openWritePath(t.db).uow.run(t.workspace.id, (tx) =>
      createApiKey(tx, t.workspace.id, 'staff target'),
    );
    const { webhook } = await createWebhook(
      openWritePath(t.db).uow,
      t.workspace.id,
      { url: 'http://127.0.0.1:9/hook', events: ['*'] },
      { now: Date.now(), allowPrivate: true },
      { type: 'system', id: null },
    );
    const client = await PanelClient.signedIn(t.app, t.db, staff);
    expect((await client.get('/panel')).statusCode).toBe(200);
    const base = '/panel/settings/developers';
    const gets = [
      '/panel/team',
      `/panel/team/members/${owner.id}/remove`,
      `${base}/api-keys`,
      `${base}/api-keys/${key.uuid}/delete`,
      `${base}/webhooks`,
      `${base}/webhooks/new`,
      `${base}/webhooks/${webhook.id}`,
    ];
    for (const url of gets) expect([url, (await client.get(url)).statusCode]).toEqual([url, 403]);
    const posts: [string, Record<string, string>][] = [
      ['/panel/team/invites', { email: 'x@example.com', role: 'owner' }],
      [`/panel/team/members/${staff.id}/role`, { role: 'owner' }],
      [`/panel/team/members/${owner.id}/remove`, {}],
      [`${base}/api-keys`, { name: 'staff key' }],
      [`${base}/api-keys/${key.uuid}/delete`, {}],
      [`${base}/webhooks`, { url: 'https://example.com/h', events: '*' }],
      [`${base}/webhooks/${webhook.id}/disable`, {}],
      [`${base}/webhooks/${webhook.id}/rotate`, {}],
      [`${base}/webhooks/${webhook.id}/test`, {}],
    ];
    const before = await keyCount(t.workspace.id);
    for (const [url, form] of posts) {
      expect([url, (await client.post(url, form)).statusCode]).toEqual([url, 403]);
    }
    expect(await keyCount(t.workspace.id)).toBe(before);
    const role = await t.db
      .selectFrom('memberships')
      .select('role')
      .where('user_id', '=', staff.id)
      .executeTakeFirst();
    expect(role?.role).toBe('staff');
    const stored = await t.db
      .selectFrom('webhooks')
      .select(['enabled', 'secret'])
      .where('id', '=', webhook.id)
      .executeTakeFirst();
    expect(stored).toEqual({ enabled: true, secret: webhook.secret });
    // The navigation does not offer what the role cannot open.
    const home = await client.get('/panel');
    expect(home.body).not.toContain('href="/panel/team"');
    expect(home.body).not.toContain('href="/panel/settings/developers/api-keys"');
  });

  it("answers another workspace's owner 404 for this workspace's uuids; nothing changes", async () => {
    const key = await openWritePath(t.db).uow.run(t.workspace.id, (tx) =>
      createApiKey(tx, t.workspace.id, 'tenant target'),
    );
    const { webhook } = await createWebhook(
      openWritePath(t.db).uow,
      t.workspace.id,
      { url: 'http://127.0.0.1:9/tenant', events: ['*'] },
      { now: Date.now(), allowPrivate: true },
      { type: 'system', id: null },
    );
    const client = await PanelClient.signedIn(t.app, t.db, otherOwner);
    const base = '/panel/settings/developers';
    for (const url of [
      `${base}/api-keys/${key.uuid}/delete`,
      `${base}/webhooks/${webhook.id}`,
      `/panel/team/members/${owner.id}/remove`,
    ]) {
      expect([url, (await client.get(url)).statusCode]).toEqual([url, 404]);
    }
    await client.get(`${base}/api-keys`);
    for (const [url, form] of [
      [`${base}/api-keys/${key.uuid}/delete`, {}],
      [`${base}/webhooks/${webhook.id}/disable`, {}],
      [`${base}/webhooks/${webhook.id}/rotate`, {}],
      [`/panel/team/members/${owner.id}/role`, { role: 'staff' }],
      [`/panel/team/members/${owner.id}/remove`, {}],
      ['/panel/workspace', { workspace: t.workspace.id }],
    ] as [string, Record<string, string>][]) {
      expect([url, (await client.post(url, form)).statusCode]).toEqual([url, 404]);
    }
    expect(
      (await t.call('GET', '/ping', undefined, { authorization: `Bearer ${key.secret}` })).statusCode,
    ).toBe(200);
    const stored = await t.db
      .selectFrom('webhooks')
      .select(['enabled', 'secret'])
      .where('id', '=', webhook.id)
      .executeTakeFirst();
    expect(stored).toEqual({ enabled: true, secret: webhook.secret });
    const ownerRole = await t.db
      .selectFrom('memberships')
      .select('role')
      .where('user_id', '=', owner.id)
      .where('workspace_id', '=', t.workspace.id)
      .executeTakeFirst();
    expect(ownerRole?.role).toBe('owner');
    // Its own panel still shows its own workspace.
    expect((await client.get('/panel')).body).toContain(other.workspace.slug);
  });

  it('lets a user in several workspaces switch between them', async () => {
    const both = await makeUser(t.db, [
      { workspaceId: t.workspace.id, role: 'admin' },
      { workspaceId: other.workspace.id, role: 'staff' },
    ]);
    const client = await PanelClient.signedIn(t.app, t.db, both, t.workspace.id);
    const home = await client.get('/panel');
    expect(home.body).toContain('id="workspace-switch"');
    expect((await client.get('/panel/settings/developers/api-keys')).statusCode).toBe(200);
    const switched = await client.post('/panel/workspace', { workspace: other.workspace.id });
    expect(switched.statusCode).toBe(303);
    expect((await client.get('/panel')).body).toContain(`<code>${other.workspace.slug}</code>`);
    // Staff there: the developer pages are closed.
    expect((await client.get('/panel/settings/developers/api-keys')).statusCode).toBe(403);
  });
});
