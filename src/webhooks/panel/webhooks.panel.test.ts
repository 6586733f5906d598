import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/build-test-app.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';
import { emitBookingEvents, insertBookingRow } from '../../../test/helpers/webhook-events.js';
import { WebhookReceiver } from '../../../test/helpers/webhook-receiver.js';
import type { UserRow } from '../../users/users.repository.js';
import { outboxHandlers } from '../../workers.js';
import { WebhookWorker } from '../delivery-worker.js';

const HOOKS = '/panel/settings/developers/webhooks';

let t: TestApp;
let strict: TestApp;
let admin: UserRow;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await buildTestApp({ config: { webhooksAllowPrivate: true } });
  // The same store behind an app that applies the SSRF guard, as production does.
  strict = await buildTestApp({ database: t.database, config: { webhooksAllowPrivate: false } });
  admin = await makeUser(t.db, [
    { workspaceId: t.workspace.id, role: 'admin' },
    { workspaceId: strict.workspace.id, role: 'admin' },
  ]);
  receiver = await WebhookReceiver.start((_request, index) =>
    index === 0 ? { status: 500, body: 'receiver down <b>now</b>' } : { status: 200, body: 'thanks' },
  );
});
afterAll(async () => {
  await receiver.close();
  await strict.app.close();
  await t.close();
});

const worker = () =>
  new WebhookWorker({
    handlers: outboxHandlers(),
    db: t.db,
    clock: { now: () => Date.now() },
    allowPrivate: true,
    timeoutMs: 2000,
  });

describe('Settings -> Developers -> Webhooks', () => {
  it('shows the SSRF refusal and a missing event choice next to their fields, keeping what was typed', async () => {
    const client = await PanelClient.signedIn(strict.app, t.db, admin, strict.workspace.id);
    const refused = await client.submit(
      `${HOOKS}/new`,
      { url: 'http://169.254.169.254/latest/meta-data', description: 'metadata <i>probe</i>' },
      HOOKS,
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(
      /<input id="f-url" name="url" type="url" value="http:\/\/169\.254\.169\.254\/latest\/meta-data"[^>]*aria-invalid="true"/,
    );
    expect(refused.body).toMatch(/<p class="error" id="f-url-error">[^<]*(private|public)[^<]*<\/p>/);
    expect(refused.body).toContain('<p class="error" id="f-events-error">');
    expect(refused.body).toContain('value="metadata &lt;i>probe&lt;/i>"');
    expect(
      await t.db
        .selectFrom('webhooks')
        .select('id')
        .where('workspace_id', '=', strict.workspace.id)
        .execute(),
    ).toEqual([]);
  });

  it('creates an endpoint with its secret shown once, logs deliveries with their attempts, resends one', async () => {
    const client = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const created = await client.submit(
      `${HOOKS}/new`,
      {
        url: receiver.url,
        description: '<script>alert(1)</script>',
        events: ['booking-created', 'booking-canceled'],
      },
      HOOKS,
    );
    expect(created.statusCode).toBe(200);
    const secret = /<code id="secret-value">(whsec_[^<]+)<\/code>/.exec(created.body)?.[1];
    expect(secret).toBeDefined();
    expect(created.body).not.toContain('<script>alert(1)</script>');
    expect(created.body).toContain('&lt;script>alert(1)&lt;/script>');
    const webhook = await t.db
      .selectFrom('webhooks')
      .selectAll()
      .where('workspace_id', '=', t.workspace.id)
      .executeTakeFirstOrThrow();
    expect(webhook.secret).toBe(secret);
    expect(webhook.events).toEqual(['booking-created', 'booking-canceled']);
    const page = `${HOOKS}/${webhook.id}`;
    expect((await client.get(page)).body).not.toContain(secret);

    // An event: the first attempt fails (500), the log says failing with the receiver's answer.
    const bookingId = await insertBookingRow(t.db, t.workspace.id);
    await emitBookingEvents(t.db, t.workspace, bookingId, ['booking-created']);
    await worker().runOnce();
    await receiver.waitFor(1);
    let log = (await client.get(page)).body;
    expect(log).toContain('<span class="badge failing">failing</span>');
    expect(log).toContain('<pre class="excerpt">receiver down &lt;b>now&lt;/b></pre>');
    expect(log).toMatch(/<td data-label="Response">500<\/td><td data-label="Duration">\d+ ms<\/td>/);

    // Resend: sent again now, delivered.
    const deliveryId = /deliveries\/([0-9a-f-]{36})\/resend/.exec(log)?.[1];
    const resent = await client.post(`${page}/deliveries/${deliveryId}/resend`);
    expect(resent.headers.location).toBe(`${page}?notice=resent`);
    await worker().runOnce();
    const requests = await receiver.waitFor(2);
    expect(requests[1]?.id).toBe(requests[0]?.id);
    log = (await client.get(page)).body;
    expect(log).toContain('<span class="badge delivered">delivered</span>');
    expect(log).toContain('2 attempts');

    // A test event, then disable: a resend is refused on the page, nothing queued.
    expect((await client.post(`${page}/test`)).headers.location).toBe(`${page}?notice=test`);
    await worker().runOnce();
    expect((await receiver.waitFor(3))[2]?.json().type).toBe('test');
    expect((await client.post(`${page}/disable`)).headers.location).toBe(`${page}?notice=disabled`);
    const refused = await client.post(`${page}/deliveries/${deliveryId}/resend`);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('The webhook is disabled: enable it first.');
    expect((await client.post(`${page}/enable`)).statusCode).toBe(303);
    expect((await client.get(page)).body).toContain('<span class="badge enabled">Enabled</span>');

    // Rotation shows the new secret once; the old one keeps signing for a day.
    const rotated = await client.post(`${page}/rotate`);
    const next = /<code id="secret-value">(whsec_[^<]+)<\/code>/.exec(rotated.body)?.[1];
    expect(next).toBeDefined();
    expect(next).not.toBe(secret);
    expect(rotated.body).toContain('the previous one signs too until');
  });
});

describe('Settings → Webhooks in other languages', () => {
  it('speaks German to a German-speaking admin: the form, the secret shown once, the endpoint page', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'admin', 'de');
    const form = (await german.get(`${HOOKS}/new`)).body;
    expect(form).toContain('<h1>Endpunkt hinzufügen</h1>');
    expect(form).toContain('— eine Buchung entsteht</span>');
    expect(form).toContain('Alle Ereignisse, auch später hinzukommende');
    const created = await german.post(HOOKS, {
      url: `${receiver.url}/de`,
      description: 'Kasse',
      events: ['booking-created'],
    });
    expect(created.statusCode).toBe(200);
    expect(created.body).toContain('<h2>Signaturgeheimnis</h2>');
    expect(created.body).toContain('<span class="badge enabled">Aktiviert</span>');
    expect(created.body).toContain('<h2 id="deliveries">Zustellungen</h2>');
    const list = (await german.get(HOOKS)).body;
    expect(list).toContain('<th scope="col">Ereignisse</th>');
  });

  it('lays the page out right to left in Arabic', async () => {
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const list = (await arabic.get(HOOKS)).body;
    expect(list).toContain('<html lang="ar" dir="rtl">');
    expect(list).toContain('<th scope="col">نقطة النهاية</th>');
  });
});
