import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { createLocation, createStaffer } from '../helpers/factories.js';
import { makeUser, PanelClient, TEST_PASSWORD } from '../helpers/panel-client.js';

/**
 * The panel's forms that change something or make a one-time secret, submitted several times at
 * once (a double click): one change, and every answer but the first is a replay. A form whose
 * answer shows a secret (API key, webhook secret, invite link) shows it once; its repeats are
 * redirected to a page without it.
 */
let t: TestApp;
let owner: PanelClient;
beforeAll(async () => {
  // Endpoints on this machine are allowed: nothing is delivered here, only queued.
  t = await buildTestApp({ config: { webhooksAllowPrivate: true } });
  owner = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
  );
});
afterAll(() => t.close());

/** The hidden idempotency key of the form posting to `action` on `page`. */
async function keyOf(page: string, action: string): Promise<string> {
  const shown = await owner.get(page);
  expect(shown.statusCode).toBe(200);
  for (const form of shown.body.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    const key = form[1] === action ? /name="idempotency_key" value="([^"]+)"/.exec(form[2]!)?.[1] : undefined;
    if (key) return key;
  }
  throw new Error(`no form posting to ${action} with a key`);
}

async function submitAtOnce(page: string, action: string, fields: Record<string, string | string[]> = {}) {
  const form = { ...fields, idempotency_key: await keyOf(page, action) };
  return Promise.all([1, 2, 3].map(() => owner.post(action, form)));
}

/** Three answers, one redirect: the first submit's, replayed to the other two. */
function expectOneRedirect(answers: LightMyRequestResponse[]): string {
  expect(answers.map((answer) => answer.statusCode)).toEqual([303, 303, 303]);
  expect(new Set(answers.map((answer) => answer.headers.location)).size).toBe(1);
  expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
  return String(answers[0]!.headers.location);
}

/** One answer shows the secret (200); the other two are redirected to `repeat` without it. */
function expectOneSecret(answers: LightMyRequestResponse[], repeat: string | RegExp): LightMyRequestResponse {
  const shown = answers.filter((answer) => answer.statusCode === 200);
  expect(shown).toHaveLength(1);
  const repeats = answers.filter((answer) => answer.statusCode === 303);
  expect(repeats).toHaveLength(2);
  for (const answer of repeats) expect(String(answer.headers.location)).toMatch(repeat);
  return shown[0]!;
}

async function count(
  table: 'invites' | 'api_keys' | 'webhooks' | 'webhook_deliveries' | 'mail_messages',
): Promise<number> {
  const rows = await t.db
    .selectFrom(table)
    .select('workspace_id')
    .where('workspace_id', '=', t.workspace.id)
    .execute();
  return rows.length;
}

describe('a form that creates something, submitted several times at once, creates one', () => {
  it('team invite: one invite, its link shown once', async () => {
    const before = await count('invites');
    const answers = await submitAtOnce('/panel/team', '/panel/team/invites', {
      email: 'twice@example.com',
      role: 'staff',
    });
    const shown = expectOneSecret(answers, /^\/panel\/team\?notice=already-invited$/);
    expect(shown.body).toMatch(/\/panel\/invites\/[A-Za-z0-9_-]+/);
    expect(await count('invites')).toBe(before + 1);
    const repeat = await owner.get('/panel/team?notice=already-invited');
    expect(repeat.body).toContain('This invite was already sent');
    expect(repeat.body).not.toMatch(/\/panel\/invites\/[A-Za-z0-9_-]{20,}/);
  });

  it('API key: one key, its secret shown once', async () => {
    const keys = '/panel/settings/developers/api-keys';
    const before = await count('api_keys');
    const answers = await submitAtOnce(keys, keys, { name: 'Twice' });
    const shown = expectOneSecret(
      answers,
      /^\/panel\/settings\/developers\/api-keys\?notice=already-created$/,
    );
    expect(shown.body).toContain('Twice');
    expect(await count('api_keys')).toBe(before + 1);
    const repeat = await owner.get(`${keys}?notice=already-created`);
    expect(repeat.body).toContain('This key was already created');
  });

  it('webhook endpoint: one endpoint, its secret shown once', async () => {
    const hooks = '/panel/settings/developers/webhooks';
    const before = await count('webhooks');
    const answers = await submitAtOnce(`${hooks}/new`, hooks, {
      url: 'http://127.0.0.1:9/twice',
      events: ['booking-created'],
    });
    const shown = expectOneSecret(
      answers,
      /^\/panel\/settings\/developers\/webhooks\/[0-9a-f-]{36}\?notice=already-created$/,
    );
    expect(shown.body).toMatch(/<code id="secret-value">whsec_/);
    expect(await count('webhooks')).toBe(before + 1);
  });

  it('webhook secret rotation: one new secret, shown once and in use', async () => {
    const hooks = '/panel/settings/developers/webhooks';
    const made = await owner.post(hooks, { url: 'http://127.0.0.1:9/rotate', events: ['booking-created'] });
    const id = /\/webhooks\/([0-9a-f-]{36})\//.exec(made.body)?.[1];
    expect(id).toBeDefined();
    const answers = await submitAtOnce(`${hooks}/${id}`, `${hooks}/${id}/rotate`);
    const shown = expectOneSecret(answers, new RegExp(`^${hooks}/${id}\\?notice=already-rotated$`));
    const secret = /<code id="secret-value">(whsec_[^<]+)<\/code>/.exec(shown.body)?.[1];
    const stored = await t.db
      .selectFrom('webhooks')
      .select('secret')
      .where('id', '=', id!)
      .executeTakeFirstOrThrow();
    expect(stored.secret).toBe(secret);
  });

  it('webhook test event: one delivery', async () => {
    const hooks = '/panel/settings/developers/webhooks';
    const made = await owner.post(hooks, { url: 'http://127.0.0.1:9/test', events: ['booking-created'] });
    const id = /\/webhooks\/([0-9a-f-]{36})\//.exec(made.body)?.[1];
    const before = await count('webhook_deliveries');
    const answers = await submitAtOnce(`${hooks}/${id}`, `${hooks}/${id}/test`);
    expect(await count('webhook_deliveries')).toBe(before + 1);
    expect(expectOneRedirect(answers)).toBe(`${hooks}/${id}?notice=test`);
  });

  it('test email: one email queued', async () => {
    const page = '/panel/settings/notifications';
    const before = await count('mail_messages');
    const answers = await submitAtOnce(page, `${page}/test`);
    expect(await count('mail_messages')).toBe(before + 1);
    expect(expectOneRedirect(answers)).toBe(`${page}?notice=test#log`);
  });

  it('staffer feed regenerate: one feed, one answer replayed to the others', async () => {
    const location = await createLocation(t.db, t.workspace.id, { name: 'Feed studio' });
    const staffer = await createStaffer(t.db, t.workspace.id, location.id, [], { firstName: 'Feed' });
    const feeds = '/panel/settings/calendar-feeds';
    const answers = await submitAtOnce(feeds, `${feeds}/staffers/${staffer.id}/regenerate`);
    expect(expectOneRedirect(answers)).toBe(`${feeds}?notice=regenerated`);
    const rows = await t.db
      .selectFrom('calendar_feeds')
      .select('regenerated_at')
      .where('workspace_id', '=', t.workspace.id)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('a form that sends or makes something again, submitted several times at once, does it once', () => {
  it('mail log resend: one copy queued', async () => {
    const page = '/panel/settings/notifications';
    await owner.post(`${page}/test`);
    const sent = await t.db
      .updateTable('mail_messages')
      .set({ state: 'sent' })
      .where('workspace_id', '=', t.workspace.id)
      .returning('id')
      .execute();
    const message = sent[0]!.id;
    const before = await count('mail_messages');
    const answers = await submitAtOnce(`${page}/messages/${message}`, `${page}/messages/${message}/resend`);
    expect(await count('mail_messages')).toBe(before + 1);
    expect(expectOneRedirect(answers)).toBe(`${page}?notice=resent#log`);
  });

  it('own feed regenerate: a new URL, one answer replayed to the others', async () => {
    const page = '/panel/account/calendar-feed';
    await owner.post(`${page}/regenerate`);
    const first = await ownFeedNonce();
    const answers = await submitAtOnce(page, `${page}/regenerate`);
    expect(expectOneRedirect(answers)).toBe(`${page}?notice=regenerated`);
    expect(await ownFeedNonce()).not.toBe(first);
  });
});

async function ownFeedNonce(): Promise<string> {
  const row = await t.db
    .selectFrom('calendar_feeds')
    .select('nonce')
    .where('workspace_id', '=', t.workspace.id)
    .where('user_id', 'is not', null)
    .executeTakeFirstOrThrow();
  return row.nonce;
}

describe('a form that changes something, submitted several times at once, changes it once', () => {
  it('location update and archive', async () => {
    const location = await createLocation(t.db, t.workspace.id, { name: 'Twice studio' });
    const page = `/panel/setup/locations/${location.id}`;
    const saved = await submitAtOnce(page, page, {
      name: 'Twice studio, renamed',
      timezone: 'Europe/Berlin',
      'address.country_iso': 'de',
    });
    expect(expectOneRedirect(saved)).toBe('/panel/setup/locations?notice=saved');
    const archived = await submitAtOnce(page, `${page}/archive`);
    expect(expectOneRedirect(archived)).toBe('/panel/setup/locations?notice=archived');
  });

  it('workspace settings', async () => {
    const page = '/panel/settings/workspace';
    const answers = await submitAtOnce(page, page, { name: 'Studio, saved once' });
    expect(expectOneRedirect(answers)).toBe(`${page}?notice=saved`);
  });

  it('role change and removal', async () => {
    const member = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    const role = await submitAtOnce('/panel/team', `/panel/team/members/${member.id}/role`, {
      role: 'admin',
    });
    expect(expectOneRedirect(role)).toBe('/panel/team?notice=role-changed');
    const removed = await submitAtOnce(
      `/panel/team/members/${member.id}/remove`,
      `/panel/team/members/${member.id}/remove`,
    );
    expect(expectOneRedirect(removed)).toBe('/panel/team?notice=removed');
  });

  it('API key delete and invite revoke', async () => {
    const keys = '/panel/settings/developers/api-keys';
    const made = await owner.post(keys, { name: 'Deleted twice' });
    expect(made.statusCode).toBe(200);
    const key = await t.db
      .selectFrom('api_keys')
      .select('id')
      .where('workspace_id', '=', t.workspace.id)
      .where('name', '=', 'Deleted twice')
      .executeTakeFirstOrThrow();
    const deleted = await submitAtOnce(`${keys}/${key.id}/delete`, `${keys}/${key.id}/delete`);
    expect(expectOneRedirect(deleted)).toBe(`${keys}?notice=deleted`);

    await owner.post('/panel/team/invites', { email: 'revoked@example.com', role: 'staff' });
    const invite = await t.db
      .selectFrom('invites')
      .select('id')
      .where('workspace_id', '=', t.workspace.id)
      .where('email', '=', 'revoked@example.com')
      .executeTakeFirstOrThrow();
    const revoked = await submitAtOnce('/panel/team', `/panel/team/invites/${invite.id}/revoke`);
    expect(expectOneRedirect(revoked)).toBe('/panel/team?notice=revoked');
  });

  it('notification settings', async () => {
    const page = '/panel/settings/notifications';
    const answers = await submitAtOnce(page, page, { sender_name: 'Saved once', reply_to: '' });
    expect(expectOneRedirect(answers)).toBe(`${page}?notice=saved`);
  });

  it('password change: one change, and a resubmit after it is the same redirect', async () => {
    const user = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]);
    const client = await PanelClient.signedIn(t.app, t.db, user, t.workspace.id);
    const page = '/panel/account/password';
    const shown = (await client.get(page)).body;
    const key = /name="idempotency_key" value="([^"]+)"/.exec(shown)?.[1];
    const form = {
      current_password: TEST_PASSWORD,
      password: 'a new and long passphrase',
      password_confirmation: 'a new and long passphrase',
      idempotency_key: key!,
    };
    const answers = await Promise.all([1, 2, 3].map(() => client.post(page, form)));
    expect(expectOneRedirect(answers)).toBe(`${page}?notice=changed`);
    const again = await client.post(page, form);
    expect(again.statusCode).toBe(303);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
