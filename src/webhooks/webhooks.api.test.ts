import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { webhookCommand } from './webhooks.cli.js';

// The default config: WEBHOOKS_ALLOW_PRIVATE is off, so the SSRF guard is active here.
let t: TestApp;
const clock = new FixedClock('2030-03-01T12:00:00Z');
beforeAll(async () => {
  t = await buildTestApp({ clock });
});
afterAll(() => t.close());

// A public address as an IP literal: no DNS needed, and never contacted by these tests.
const PUBLIC_URL = 'https://93.184.215.14/hooks';
const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32}$/;

async function create(body: Record<string, unknown>) {
  const response = await t.call('POST', '/webhooks', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

describe('webhook management API', () => {
  it('creates a webhook, showing the secret only in the creation answer', async () => {
    const created = await create({ url: PUBLIC_URL, description: 'CRM sync' });
    expect(created).toMatchObject({
      url: PUBLIC_URL,
      events: ['*'],
      enabled: true,
      description: 'CRM sync',
      disabled_reason: null,
    });
    expect(created.secret).toMatch(SECRET_PATTERN);

    const one = await t.call('GET', `/webhooks/${created.uuid}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data.uuid).toBe(created.uuid);
    expect(one.body).not.toContain(created.secret);

    const list = await t.call('GET', '/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((w: { uuid: string }) => w.uuid)).toContain(created.uuid);
    expect(list.json().meta).toMatchObject({ current_page: 1, per_page: 15 });
    expect(list.body).not.toContain(created.secret);
  });

  it('keeps the events it is given, in a stable order, and folds "*" or "all" into ["*"]', async () => {
    const some = await create({ url: PUBLIC_URL, events: ['booking-canceled', 'booking-created'] });
    expect(some.events).toEqual(['booking-created', 'booking-canceled']);
    const all = await create({ url: PUBLIC_URL, events: ['booking-canceled', 'all'] });
    expect(all.events).toEqual(['*']);
  });

  it('names every bad field at once', async () => {
    const response = await t.call('POST', '/webhooks', {
      url: 'ftp://example.com/hook',
      events: ['booking-created', 'booking-exploded'],
      enabled: 'maybe',
      description: 'x'.repeat(501),
    });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
    expect(Object.keys(body.errors).sort()).toEqual(['description', 'enabled', 'events.1', 'url']);
    expect(body.errors.url[0]).toMatch(/http or https/);
    expect(body.errors['events.1'][0]).toContain('booking-exploded');
  });

  it('requires a url and at least one event', async () => {
    const missing = await t.call('POST', '/webhooks', { events: [] });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['events', 'url']);
    const garbage = await t.call('POST', '/webhooks', { url: 'not a url' });
    expect(garbage.statusCode).toBe(422);
    expect(garbage.json().errors.url).toHaveLength(1);
  });

  it('changes only the fields given and re-validates the url', async () => {
    const created = await create({ url: PUBLIC_URL, events: ['booking-created'] });
    const changed = await t.call('PUT', `/webhooks/${created.uuid}`, {
      enabled: false,
      description: 'paused',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({
      url: PUBLIC_URL,
      events: ['booking-created'],
      enabled: false,
      description: 'paused',
    });
    const bad = await t.call('PUT', `/webhooks/${created.uuid}`, { url: 'http://10.1.2.3/hook' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.url).toBeDefined();
    const after = await t.call('GET', `/webhooks/${created.uuid}`);
    expect(after.json().data.url).toBe(PUBLIC_URL);
  });

  it('deletes a webhook: 204, then 404', async () => {
    const created = await create({ url: PUBLIC_URL });
    const deleted = await t.call('DELETE', `/webhooks/${created.uuid}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await t.call('GET', `/webhooks/${created.uuid}`)).statusCode).toBe(404);
    expect((await t.call('DELETE', `/webhooks/${created.uuid}`)).statusCode).toBe(404);
  });

  it("answers 404 for another workspace's webhook exactly as for an unknown one", async () => {
    const other = await createOtherWorkspace(t.db);
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/public/v2/webhooks',
      headers: other.headers,
      payload: { url: PUBLIC_URL },
    });
    expect(theirs.statusCode).toBe(201);
    const uuid = theirs.json().data.uuid;
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const id of [uuid, unknown]) {
      const answers = await Promise.all([
        t.call('GET', `/webhooks/${id}`),
        t.call('PUT', `/webhooks/${id}`, { description: 'mine now' }),
        t.call('DELETE', `/webhooks/${id}`),
        t.call('POST', `/webhooks/${id}/rotate-secret`),
        t.call('POST', `/webhooks/${id}/test`),
        t.call('GET', `/webhooks/${id}/deliveries`),
        t.call('POST', `/webhooks/${id}/deliveries/${unknown}/retry`),
      ]);
      for (const answer of answers) {
        expect(answer.statusCode).toBe(404);
        expect(answer.json().code).toBe('not_found');
      }
    }
    expect((await t.call('GET', '/webhooks')).body).not.toContain(uuid);
    const still = await t.app.inject({
      method: 'GET',
      url: `/api/public/v2/webhooks/${uuid}`,
      headers: other.headers,
    });
    expect(still.json().data.description).toBe('');
  });

  it('rotates the secret: a new one, the old one valid for 24 more hours', async () => {
    const created = await create({ url: PUBLIC_URL });
    const rotated = await t.call('POST', `/webhooks/${created.uuid}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const data = rotated.json().data;
    expect(data.secret).toMatch(SECRET_PATTERN);
    expect(data.secret).not.toBe(created.secret);
    expect(Date.parse(data.previous_secret_expires_at)).toBe(clock.now() + 24 * 3600 * 1000);
  });
});

describe('SSRF guard at create and update (WEBHOOKS_ALLOW_PRIVATE off)', () => {
  const refused = [
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.0.0.7/hook',
    'http://172.20.1.1/hook',
    'http://192.168.1.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://0.0.0.0/hook',
    'http://[::1]/hook',
    'http://[fd12:3456::1]/hook',
    'http://[fe80::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://2130706433/hook', // 127.0.0.1 as a number
  ];
  for (const url of refused) {
    it(`refuses ${url} with 422 on url`, async () => {
      const response = await t.call('POST', '/webhooks', { url });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['url']);
      expect(response.json().errors.url[0]).toMatch(/private, loopback or link-local/);
    });
  }

  it('refuses non-http schemes', async () => {
    for (const url of ['file:///etc/passwd', 'gopher://93.184.215.14/', 'javascript:alert(1)']) {
      const response = await t.call('POST', '/webhooks', { url });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors.url[0]).toMatch(/http or https/);
    }
  });
});

describe('webhook CLI', () => {
  it('creates (secret shown once), lists, rotates and deletes', async () => {
    const slug = t.workspace.slug;
    const created = (await webhookCommand(t.database, [
      'create',
      '--workspace',
      slug,
      '--url',
      PUBLIC_URL,
      '--events',
      'booking-created,booking-canceled',
      '--description',
      'from the CLI',
    ])) as { data: { uuid: string; secret: string; events: string[] } };
    expect(created.data.secret).toMatch(SECRET_PATTERN);
    expect(created.data.events).toEqual(['booking-created', 'booking-canceled']);

    const listed = (await webhookCommand(t.database, ['list', '--workspace', slug])) as {
      data: { uuid: string; description: string }[];
    };
    expect(listed.data.find((w) => w.uuid === created.data.uuid)?.description).toBe('from the CLI');
    expect(JSON.stringify(listed)).not.toContain(created.data.secret);

    const rotated = (await webhookCommand(t.database, [
      'rotate-secret',
      '--workspace',
      slug,
      '--uuid',
      created.data.uuid,
    ])) as { data: { secret: string } };
    expect(rotated.data.secret).toMatch(SECRET_PATTERN);
    expect(rotated.data.secret).not.toBe(created.data.secret);

    expect(
      await webhookCommand(t.database, ['delete', '--workspace', slug, '--uuid', created.data.uuid]),
    ).toEqual({ deleted: true, uuid: created.data.uuid });
    await expect(
      webhookCommand(t.database, ['delete', '--workspace', slug, '--uuid', created.data.uuid]),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('reports bad input with the same codes as the API', async () => {
    const slug = t.workspace.slug;
    await expect(
      webhookCommand(t.database, ['create', '--workspace', slug, '--url', 'http://127.0.0.1/x']),
    ).rejects.toMatchObject({ code: 'validation_failed', errors: { url: [expect.any(String)] } });
    await expect(webhookCommand(t.database, ['create', '--workspace', slug])).rejects.toMatchObject({
      name: 'UsageError',
    });
    await expect(webhookCommand(t.database, ['list', '--workspace', 'no-such-ws'])).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(webhookCommand(t.database, ['explode'])).rejects.toMatchObject({ name: 'UsageError' });
    expect(await webhookCommand(t.database, ['--help'])).toHaveProperty('commands');
  });

  it('creates a legacy webhook with static headers (--format, repeatable --header), read back through the API', async () => {
    const slug = t.workspace.slug;
    const created = (await webhookCommand(t.database, [
      'create',
      '--workspace',
      slug,
      '--url',
      PUBLIC_URL,
      '--format',
      'legacy',
      '--header',
      'Webhook-Token: tok-1',
      '--header',
      'X-Shop:  north ',
    ])) as { data: { uuid: string; format: string; headers: Record<string, string> } };
    // Shown once, as the API shows them on creation; values trimmed as the API trims them.
    expect(created.data.format).toBe('legacy');
    expect(created.data.headers).toEqual({ 'Webhook-Token': 'tok-1', 'X-Shop': 'north' });
    const read = (await t.call('GET', `/webhooks/${created.data.uuid}`)).json().data;
    expect(read.format).toBe('legacy');
    expect([...read.header_names].sort()).toEqual(['Webhook-Token', 'X-Shop']);
    const plain = (await webhookCommand(t.database, [
      'create',
      '--workspace',
      slug,
      '--url',
      PUBLIC_URL,
    ])) as {
      data: { format: string; header_names: string[] };
    };
    expect(plain.data).toMatchObject({ format: 'standard', header_names: [] });
  });

  it.each([
    [['--format', 'xml'], 'format'],
    [['--format', 'Legacy'], 'format'],
    [['--header', 'Host: evil.example'], 'headers.Host'],
    [['--header', 'webhook-signature: v1,x'], 'headers.webhook-signature'],
    [['--header', 'bad name: x'], 'headers.bad name'],
    [['--header', 'X-Token'], 'headers.X-Token'],
    [['--header', 'X-A: 1', '--header', 'x-a: 2'], 'headers.x-a'],
  ])('refuses %j with a 422 on %s, as the API would', async (flags, field) => {
    const before = (await t.call('GET', '/webhooks?per_page=100')).json().meta.total;
    const attempt = webhookCommand(t.database, [
      'create',
      '--workspace',
      t.workspace.slug,
      '--url',
      PUBLIC_URL,
      ...flags,
    ]);
    await expect(attempt).rejects.toMatchObject({ code: 'validation_failed' });
    const errors = (await attempt.catch(
      (error: { errors: Record<string, string[]> }) => error.errors,
    )) as Record<string, string[]>;
    expect(Object.keys(errors)).toEqual([field]);
    // Nothing was stored.
    expect((await t.call('GET', '/webhooks?per_page=100')).json().meta.total).toBe(before);
  });

  it('refuses a format the API refuses too', async () => {
    const response = await t.call('POST', '/webhooks', { url: PUBLIC_URL, format: 'xml' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['format']);
  });
});
