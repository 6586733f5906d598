import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, change, NOW, setWorkspace } from '../../test/bookings/bookings-kit.js';
import { type BookingFixture, bookingFixture } from '../../test/helpers/booking-fixture.js';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { FakeTwilio } from '../../test/helpers/fake-twilio.js';
import { makeUser, PanelClient } from '../../test/helpers/panel-client.js';
import { WebhookReceiver } from '../../test/helpers/webhook-receiver.js';
import { CLI_ACTOR } from '../audit/audit.service.js';
import { type Config, loadConfig } from '../config.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { generateWebhookSecret } from '../webhooks/signing.js';
import { outboxHandlers } from '../workers.js';
import { openWritePath } from '../write-path.js';
import { twilioProvider } from './providers/twilio-provider.js';
import { countSegments } from './segments.rules.js';
import { claimDueTexts, monthlyTextTotals } from './text-messages.repository.js';
import { statusCallbackUrl } from './text-providers.service.js';
import { renderText, type TextSnapshot } from './text-render.js';
import type { TextSettingsInput } from './text-settings.rules.js';
import { updateTextSettings } from './text-settings.service.js';
import { NOT_SENT_NO_PROVIDER, TextWorker } from './text-worker.js';

/**
 * Text messages end to end over real HTTP: bookings made through the API queue texts from their
 * outbox events; the text worker sends them through the official twilio package to a fake Twilio
 * on loopback (or signed POSTs to a gateway receiver); the fakes call back our hook endpoints,
 * signed as the real services sign. The clock is the test's; nothing sleeps.
 */
const SECRET_KEY = 'test-secret-key-of-at-least-32-characters';
const SENDER = '+15005550006';
let t: TestApp;
let f: BookingFixture;
let clock: FixedClock;
let config: Config;
let base: string;
let fake: FakeTwilio;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  clock = new FixedClock(NOW);

  fake = await FakeTwilio.start();
  config = {
    ...loadConfig({}),
    worker: 'off',
    apiRateLimitPerMinute: 0,
    secretKey: SECRET_KEY,
    webhooksAllowPrivate: true,
    twilioApiBase: fake.origin,
  };
  t = await buildTestApp({ clock, config });
  f = await bookingFixture(t);
  await setWorkspace(t, { staffer_selection: 'required', contacts: { phone: '+493012345678' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  clock.set(NOW);
  fake.reply = () => 'accept';
  await dispatchOutbox(t.db, outboxHandlers(), clock.now(), 1_000);
  await t.db
    .updateTable('text_messages')
    .set({ state: 'dropped' })
    .where('workspace_id', '=', t.workspace.id)
    .where('state', 'in', ['pending', 'sending'])
    .execute();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await fake.close();
  await t.close();
});

function input(overrides: Partial<TextSettingsInput> = {}): TextSettingsInput {
  return {
    enabled: true,
    provider: 'twilio',
    customerTexts: ['confirmed', 'rescheduled', 'canceled', 'reminder'],
    reminderHours: ['24'],
    whatsapp: false,
    sender: SENDER,
    twilioAccountSid: fake.accountSid,
    twilioAuthToken: fake.authToken,
    gatewayUrl: '',
    gatewaySecret: '',
    consent: 'optional',
    ...overrides,
  };
}

const save = (overrides: Partial<TextSettingsInput> = {}) =>
  updateTextSettings(
    openWritePath(t.db).uow,
    t.workspace.id,
    input(overrides),
    config,
    clock.now(),
    CLI_ACTOR,
  );

function worker() {
  return new TextWorker({
    handlers: outboxHandlers(),
    db: t.db,
    clock,
    publicBase: base,
    config,
    random: () => 0.5,
    workerId: 'text-test',
  });
}

let days = 0;
/** A day of its own per booking (September, Berlin summer time). */
const nextDay = () => new Date(Date.UTC(2026, 8, 2 + days++)).toISOString().slice(0, 10);

async function textsOf(bookingId: string) {
  await dispatchOutbox(t.db, outboxHandlers(), clock.now(), 1_000);
  return t.db
    .selectFrom('text_messages')
    .selectAll()
    .where('workspace_id', '=', t.workspace.id)
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .execute();
}

async function textById(id: string) {
  return t.db.selectFrom('text_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const hook = (kind: 'inbound' | 'status', provider = 'twilio') =>
  `${base}/hooks/text/${t.workspace.id}/${provider}/${kind}`;

describe('texts through Twilio (the official SDK against a fake Twilio)', () => {
  beforeAll(() => save());

  it('sends one confirmation per booking to numbers of several countries, with the callback URL', async () => {
    const phones = [
      '+4915112345001',
      '+14155550123',
      '+447911123456',
      '+33612345678',
      '+48512345678',
      '+5511987654321',
      '+919812345678',
    ];
    const before = fake.creates.length;
    const bookings = [];
    for (const phone of phones)
      bookings.push(await book(t, bookingBody(f, at(nextDay(), '15:00'), { customer_phone: phone })));
    const round = await worker().runOnce(50);
    expect(round.outcomes.filter((o) => o === 'sent')).toHaveLength(phones.length);
    const creates = fake.creates.slice(before);
    expect(creates.map((c) => c.To).sort()).toEqual([...phones].sort());
    for (const [i, booking] of bookings.entries()) {
      const [confirmation] = (await textsOf(booking.uuid)).filter((m) => m.kind === 'confirmed');
      const create = creates.find((c) => c.To === phones[i])!;
      expect(create.From).toBe(SENDER);
      expect(create.Body).toBe(confirmation!.body);
      expect(create.Body).toContain('Haircut on');
      expect(create.Body).toContain('GMT+2');
      expect(create.Body).toContain(`/book/${t.workspace.slug}/manage/`);
      expect(create.Body).toMatch(/STOP to opt out$/);
      expect(create.StatusCallback).toBe(statusCallbackUrl(base, t.workspace.id, 'twilio', confirmation!.id));
      const sid = fake.messages.find((m) => m.to === phones[i])!.sid;
      expect(confirmation).toMatchObject({ state: 'sent', provider_ref: sid, encoding: 'gsm7' });
      expect(confirmation!.segments).toBe(countSegments(create.Body!).segments);
    }
  });

  it('WhatsApp: the same message with whatsapp: addresses', async () => {
    await save({ whatsapp: true });
    try {
      const booking = await book(
        t,
        bookingBody(f, at(nextDay(), '15:00'), { customer_phone: '+5511987650001' }),
      );
      await worker().runOnce(50);
      const create = fake.creates.at(-1)!;
      expect(create).toMatchObject({ To: 'whatsapp:+5511987650001', From: `whatsapp:${SENDER}` });
      const [text] = (await textsOf(booking.uuid)).filter((m) => m.kind === 'confirmed');
      expect(text).toMatchObject({ channel: 'whatsapp', state: 'sent', recipient: '+5511987650001' });
    } finally {
      await save();
    }
  });

  it('a redelivered event never makes a second text', async () => {
    const booking = await book(
      t,
      bookingBody(f, at(nextDay(), '11:00'), { customer_phone: '+4915112345002' }),
    );
    await worker().runOnce(50);
    const sentBefore = fake.creates.length;
    // The events are dispatched again (as after a dispatcher's crash before its commit was seen).
    await t.db
      .updateTable('outbox_events')
      .set({ dispatched_at: null })
      .where('booking_id', '=', booking.uuid)
      .execute();
    const texts = await textsOf(booking.uuid);
    expect(texts.filter((m) => m.kind === 'confirmed')).toHaveLength(1);
    expect(texts.filter((m) => m.kind === 'reminder')).toHaveLength(1);
    await worker().runOnce(50);
    expect(fake.creates.length).toBe(sentBefore);
  });

  it('a change and a cancel each send once; the reminder follows the booking and is dropped on cancel', async () => {
    const day = nextDay();
    const booking = await book(t, bookingBody(f, at(day, '10:00'), { customer_phone: '+4915112345003' }));
    await change(t, 'PUT', `/bookings/${booking.uuid}/reschedule`, { reserved_on: at(day, '12:00') });
    await change(t, 'PUT', `/bookings/${booking.uuid}/status/cancel`, { cancel_reason: 'canceled' });
    const texts = await textsOf(booking.uuid);
    expect(texts.map((m) => [m.kind, m.revision, m.state]).sort()).toEqual(
      [
        ['canceled', 4, 'pending'],
        ['confirmed', 1, 'pending'],
        ['reminder', 1, 'dropped'],
        ['reminder', 3, 'dropped'],
        ['rescheduled', 3, 'pending'],
      ].sort(),
    );
    // Sent in order, one round each: a text waits while an earlier one of its booking is untried.
    const before = fake.creates.length;
    for (let i = 0; i < 3; i++) await worker().runOnce(50);
    const bodies = fake.creates
      .slice(before)
      .filter((c) => c.To === '+4915112345003')
      .map((c) => c.Body);
    expect(bodies).toHaveLength(3);
    expect(bodies[0]).toContain('is booked');
    expect(bodies[1]).toContain('moved to');
    expect(bodies[2]).toContain('is canceled');
  });

  it('status callbacks, signed as Twilio signs, move the log entry forward and fetch the price', async () => {
    const booking = await book(
      t,
      bookingBody(f, at(nextDay(), '16:00'), { customer_phone: '+4915112345004' }),
    );
    await worker().runOnce(50);
    const [text] = (await textsOf(booking.uuid)).filter((m) => m.kind === 'confirmed');
    const sid = text!.provider_ref!;
    expect((await fake.statusCallback(sid, 'sent')).status).toBe(204);
    expect((await textById(text!.id)).state).toBe('sent');
    expect((await fake.statusCallback(sid, 'delivered')).status).toBe(204);
    const delivered = await textById(text!.id);
    expect(delivered).toMatchObject({ state: 'delivered', price_micros: 7900, price_unit: 'USD' });
    // A late "sent" (callbacks may come out of order) does not undo "delivered".
    await fake.statusCallback(sid, 'sent');
    expect((await textById(text!.id)).state).toBe('delivered');
    // A forged callback is refused and changes nothing.
    const message = fake.messages.find((m) => m.sid === sid)!;
    const forged = await fake.post(
      message.statusCallback!,
      { MessageSid: sid, MessageStatus: 'failed' },
      fake.sign(message.statusCallback!, { MessageSid: sid, MessageStatus: 'delivered' }),
    );
    expect(forged.status).toBe(403);
    expect((await textById(text!.id)).state).toBe('delivered');
  });

  it('an undelivered message shows its error code', async () => {
    const booking = await book(
      t,
      bookingBody(f, at(nextDay(), '16:00'), { customer_phone: '+4915112345005' }),
    );
    await worker().runOnce(50);
    const [text] = (await textsOf(booking.uuid)).filter((m) => m.kind === 'confirmed');
    await fake.statusCallback(text!.provider_ref!, 'undelivered', '30003');
    expect(await textById(text!.id)).toMatchObject({
      state: 'undelivered',
      last_response: 'undelivered (error 30003)',
    });
  });

  it('a refused number fails at once; a Twilio outage is retried with backoff', async () => {
    fake.reply = (form) =>
      form.To === '+4915112345006'
        ? { status: 400, code: 21211, message: "The 'To' number is not a valid phone number." }
        : { status: 503, code: 20503, message: 'Service unavailable' };
    const refused = await book(
      t,
      bookingBody(f, at(nextDay(), '16:00'), { customer_phone: '+4915112345006' }),
    );
    const outage = await book(
      t,
      bookingBody(f, at(nextDay(), '16:00'), { customer_phone: '+4915112345007' }),
    );
    await worker().runOnce(50);
    const [a] = (await textsOf(refused.uuid)).filter((m) => m.kind === 'confirmed');
    const [b] = (await textsOf(outage.uuid)).filter((m) => m.kind === 'confirmed');
    expect(a).toMatchObject({ state: 'failed' });
    expect(a!.last_response).toContain('21211');
    // Shown in the log with "Send again": a new text of the same content, sent on its own.
    const admin = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]);
    const panel = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const page = '/panel/settings/notifications/texts';
    expect((await panel.get(page)).body).toContain(`${page}/messages/${a!.id}/resend`);
    expect((await panel.submit(page, {}, `${page}/messages/${a!.id}/resend`)).statusCode).toBe(303);
    const copies = (await textsOf(refused.uuid)).filter((m) => m.kind === 'confirmed');
    expect(copies).toHaveLength(2);
    expect(copies[1]).toMatchObject({ state: 'pending', message_key: expect.stringContaining('.resend-') });
    expect((await panel.submit(page, {}, `${page}/messages/${b!.id}/resend`)).statusCode).toBe(409);
    expect(b).toMatchObject({ state: 'pending', attempt_count: 1 });
    fake.reply = () => 'accept';
    clock.set(new Date(b!.next_attempt_at.getTime()).toISOString());
    await worker().runOnce(50);
    expect(await textById(b!.id)).toMatchObject({ state: 'sent', attempt_count: 2 });
  });

  it('an attempt interrupted after Twilio took the message is found there, not sent twice', async () => {
    const booking = await book(
      t,
      bookingBody(f, at(nextDay(), '16:00'), { customer_phone: '+4915112345008' }),
    );
    await dispatchOutbox(t.db, outboxHandlers(), clock.now(), 1_000);
    // A worker claims the text and reaches Twilio, then dies before recording the answer.
    const claimed = (await claimDueTexts(t.db, clock.now(), clock.now() + 60_000, 50)).find(
      (m) => m.booking_id === booking.uuid,
    )!;
    const body = renderText(claimed.kind, claimed.snapshot as unknown as TextSnapshot, base);
    const provider = twilioProvider({
      accountSid: fake.accountSid,
      authToken: fake.authToken,
      sender: SENDER,
      apiBase: fake.origin,
    });
    const first = await provider.send({
      id: claimed.id,
      to: claimed.recipient,
      body,
      channel: 'sms',
      statusCallback: 'http://x/',
    });
    expect(first.ok).toBe(true);
    const creates = fake.creates.length;
    // Its lease runs out; the next worker claims it, asks Twilio, and records what Twilio has.
    clock.advance(61_000);
    await worker().runOnce(50);
    expect(fake.creates.length).toBe(creates);
    const after = await textById(claimed.id);
    expect(after).toMatchObject({
      state: 'sent',
      attempt_count: 2,
      in_doubt: false,
      provider_ref: (first as { ref: string }).ref,
    });
    expect(after.last_response).toContain('found after an interrupted attempt');
  });

  it('an interrupted attempt that never reached Twilio is sent then', async () => {
    const booking = await book(
      t,
      bookingBody(f, at(nextDay(), '16:00'), { customer_phone: '+4915112345009' }),
    );
    await dispatchOutbox(t.db, outboxHandlers(), clock.now(), 1_000);
    const claimed = (await claimDueTexts(t.db, clock.now(), clock.now() + 60_000, 50)).find(
      (m) => m.booking_id === booking.uuid,
    )!;
    const creates = fake.creates.length;
    clock.advance(61_000);
    await worker().runOnce(50);
    expect(fake.creates.length).toBe(creates + 1);
    expect(await textById(claimed.id)).toMatchObject({ state: 'sent', attempt_count: 2 });
  });

  it('STOP opts the number out of this workspace’s texts, START back in; a repeated inbound changes nothing', async () => {
    const phone = '+4915112345010';
    const stop = await fake.inbound(
      hook('inbound'),
      phone,
      SENDER,
      'Stop',
      'SM00000000000000000000000000000001',
    );
    expect(stop.status).toBe(200);
    expect(stop.body).toContain('<Response/>');
    const optOut = await t.db
      .selectFrom('text_opt_outs')
      .selectAll()
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    expect(optOut).toMatchObject({ opted_out: true, keyword: 'Stop' });
    const booking = await book(t, bookingBody(f, at(nextDay(), '16:00'), { customer_phone: phone }));
    const creates = fake.creates.length;
    await worker().runOnce(50);
    expect(fake.creates.length).toBe(creates);
    const [text] = (await textsOf(booking.uuid)).filter((m) => m.kind === 'confirmed');
    expect(text!.state).toBe('opted_out');
    // The panel shows the state on the customer.
    const admin = await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]);
    const panel = await PanelClient.signedIn(t.app, t.db, admin, t.workspace.id);
    const customerPage = await panel.get(`/panel/customers/${booking.customer.uuid}`);
    expect(customerPage.body).toMatch(
      /data-text-opt-out[^>]*>Opted out \(replied “Stop” on \d{4}-\d{2}-\d{2}\): receives no texts/,
    );
    await fake.inbound(hook('inbound'), phone, SENDER, 'START', 'SM00000000000000000000000000000002');
    // The same STOP delivered again (Twilio's retry) is recorded once and opts nobody out again.
    await fake.inbound(hook('inbound'), phone, SENDER, 'Stop', 'SM00000000000000000000000000000001');
    expect(
      (
        await t.db
          .selectFrom('text_opt_outs')
          .selectAll()
          .where('phone', '=', phone)
          .executeTakeFirstOrThrow()
      ).opted_out,
    ).toBe(false);
    const inbound = await t.db.selectFrom('text_inbound').selectAll().where('phone', '=', phone).execute();
    expect(inbound.map((row) => row.action).sort()).toEqual(['start', 'stop']);
    const again = await book(t, bookingBody(f, at(nextDay(), '16:00'), { customer_phone: phone }));
    await worker().runOnce(50);
    expect(fake.creates.length).toBe(creates + 1);
    expect((await textsOf(again.uuid)).find((m) => m.kind === 'confirmed')!.state).toBe('sent');
    expect((await panel.get(`/panel/customers/${booking.customer.uuid}`)).body).toContain(
      'Opted in again (replied “START”',
    );
    // An unsigned inbound is refused.
    const forged = await fake.post(hook('inbound'), { From: phone, Body: 'STOP', MessageSid: 'SMx' }, 'bad');
    expect(forged.status).toBe(403);
  });

  it('a reply C confirms the next booking; a cancel word cancels it while the cut-off allows, else says whom to call', async () => {
    const phone = '+4915112345011';
    const booking = await book(t, bookingBody(f, at(nextDay(), '16:00'), { customer_phone: phone }));
    const confirm = await fake.inbound(
      hook('inbound'),
      phone,
      SENDER,
      'c',
      'SM00000000000000000000000000000011',
    );
    expect(confirm.body).toContain('<Message>Test Studio: thank you,');
    const view = await t.call('GET', `/bookings/${booking.uuid}`);
    expect(view.json().data.status.type ?? view.json().data.status_type).toBeDefined();
    const status = await t.db
      .selectFrom('bookings as b')
      .innerJoin('booking_statuses as s', 's.id', 'b.status_id')
      .select('s.type')
      .where('b.id', '=', booking.uuid)
      .executeTakeFirstOrThrow();
    expect(status.type).toBe('confirmed');
    // Within the manage link's cut-off: refused, with the business's phone.
    await setWorkspace(t, { manage_cutoff_minutes: 525_600 });
    const refused = await fake.inbound(
      hook('inbound'),
      phone,
      SENDER,
      'STORNO',
      'SM00000000000000000000000000000012',
    );
    expect(refused.body).toContain('cannot be canceled by text any more');
    expect(refused.body).toContain('+493012345678');
    await setWorkspace(t, { manage_cutoff_minutes: 0 });
    const cancel = await fake.inbound(
      hook('inbound'),
      phone,
      SENDER,
      'STORNO',
      'SM00000000000000000000000000000013',
    );
    expect(cancel.body).toContain('is canceled');
    const after = await t.db
      .selectFrom('bookings as b')
      .innerJoin('booking_statuses as s', 's.id', 'b.status_id')
      .select('s.type')
      .where('b.id', '=', booking.uuid)
      .executeTakeFirstOrThrow();
    expect(after.type).toBe('canceled');
    const none = await fake.inbound(
      hook('inbound'),
      phone,
      SENDER,
      'YES',
      'SM00000000000000000000000000000014',
    );
    expect(none.body).toContain('no upcoming booking');
  });

  it('reminders inside quiet hours go at their end, in the location’s zone', async () => {
    // Booked for 07:30 Berlin two days on; a 24 h reminder would be due at 07:30 the day before:
    // inside 21:00-08:00, so it goes at 08:00 (06:00Z).
    const day = nextDay();
    const booking = await book(t, bookingBody(f, at(day, '09:00'), { customer_phone: '+4915112345012' }));
    const [reminder] = (await textsOf(booking.uuid)).filter((m) => m.kind === 'reminder');
    // 09:00 - 24 h = 09:00 the day before: outside quiet hours, unchanged.
    expect(reminder!.due_at.toISOString()).toBe(
      new Date(Date.parse(at(day, '09:00')) - 86_400_000).toISOString(),
    );
    await t.db
      .updateTable('locations')
      .set({ text_quiet_hours: '21:00-10:00' })
      .where('id', '=', f.location.id)
      .execute();
    const day2 = nextDay();
    const early = await book(t, bookingBody(f, at(day2, '12:00'), { customer_phone: '+4915112345013' }));
    const [moved] = (await textsOf(early.uuid)).filter((m) => m.kind === 'reminder');
    // 12:00 - 24 h = 12:00 the day before... outside 21:00-10:00; so use an offset that lands inside.
    expect(moved!.due_at.toISOString()).toBe(
      new Date(Date.parse(at(day2, '12:00')) - 86_400_000).toISOString(),
    );
    await save({ reminderHours: ['5'] });
    const day3 = nextDay();
    const late = await book(t, bookingBody(f, at(day3, '14:00'), { customer_phone: '+4915112345014' }));
    // 14:00 - 5 h = 09:00 Berlin: inside 21:00-10:00, so at 10:00 Berlin (08:00Z).
    const [quiet] = (await textsOf(late.uuid)).filter((m) => m.kind === 'reminder');
    expect(quiet!.due_at.toISOString()).toBe(at(day3, '10:00').replace('Z', '.000Z'));
    await t.db
      .updateTable('locations')
      .set({ text_quiet_hours: null })
      .where('id', '=', f.location.id)
      .execute();
    await save();
  });
});

describe('texts through a generic HTTP gateway', () => {
  const secret = generateWebhookSecret();
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    await save({ provider: 'gateway', gatewayUrl: receiver.url, gatewaySecret: secret, sender: 'Studio' });
  });
  afterAll(() => save());

  it('POSTs each text signed per Standard Webhooks; a retry carries the same webhook-id', async () => {
    let calls = 0;
    receiver.respond = () =>
      ++calls === 1
        ? { status: 503 }
        : {
            status: 200,
            body: JSON.stringify({ id: 'gw-1', status: 'queued', price: '0.05', price_unit: 'EUR' }),
          };
    const booking = await book(
      t,
      bookingBody(f, at(nextDay(), '16:00'), { customer_phone: '+4915112345020' }),
    );
    await worker().runOnce(50);
    const [text] = (await textsOf(booking.uuid)).filter((m) => m.kind === 'confirmed');
    expect(text).toMatchObject({ state: 'pending', attempt_count: 1 });
    clock.set(new Date(text!.next_attempt_at.getTime()).toISOString());
    await worker().runOnce(50);
    const requests = receiver.requests.slice(-2);
    expect(requests.map((r) => r.id)).toEqual([text!.id, text!.id]);
    // Verified as a receiver does, with the secret the business set.
    const headers = requests[1]!.headers;
    const stamp = new Date(Number(headers['webhook-timestamp']) * 1000);
    expect(stamp.getTime()).toBe(Math.floor(clock.now() / 1000) * 1000);
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign(text!.id, stamp, requests[1]!.body));
    const payload = JSON.parse(requests[1]!.body) as Record<string, unknown>;
    expect(payload).toMatchObject({
      type: 'text-message.send',
      id: text!.id,
      to: '+4915112345020',
      from: 'Studio',
      channel: 'sms',
    });
    expect(payload.status_url).toBe(statusCallbackUrl(base, t.workspace.id, 'gateway', text!.id));
    expect(await textById(text!.id)).toMatchObject({
      state: 'sent',
      provider_ref: 'gw-1',
      price_micros: 50_000,
      price_unit: 'EUR',
    });
  });

  it('takes signed status callbacks and inbound texts; refuses unsigned ones', async () => {
    receiver.respond = () => ({ status: 202 });
    const phone = '+4915112345021';
    const booking = await book(t, bookingBody(f, at(nextDay(), '16:00'), { customer_phone: phone }));
    await worker().runOnce(50);
    const [text] = (await textsOf(booking.uuid)).filter((m) => m.kind === 'confirmed');
    const post = (kind: 'status' | 'inbound', id: string, payload: Record<string, unknown>, key = secret) => {
      const body = JSON.stringify(payload);
      const stamp = new Date();
      return fetch(hook(kind, 'gateway'), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(stamp.getTime() / 1000)),
          'webhook-signature': new Webhook(key).sign(id, stamp, body),
        },
        body,
      });
    };
    const status = await post('status', 'evt-1', {
      id: text!.id,
      status: 'delivered',
      price: '0.04',
      price_unit: 'EUR',
    });
    expect(status.status).toBe(204);
    expect(await textById(text!.id)).toMatchObject({ state: 'delivered', price_micros: 40_000 });
    const forged = await post('status', 'evt-2', { id: text!.id, status: 'failed' }, generateWebhookSecret());
    expect(forged.status).toBe(403);
    const stop = await post('inbound', 'in-1', { id: 'in-1', from: phone, body: 'ARRET' });
    expect(await stop.json()).toMatchObject({ action: 'stop', reply: expect.stringContaining('START') });
    const repeat = await post('inbound', 'in-1', { id: 'in-1', from: phone, body: 'ARRET' });
    expect(await repeat.json()).toEqual({ action: 'duplicate', reply: null });
  });
});

describe('texts without a provider', () => {
  beforeAll(() => save({ provider: 'none' }));
  afterAll(() => save());

  it('keeps each text in the log as it would go out, and sends nothing', async () => {
    const creates = fake.creates.length;
    const booking = await book(
      t,
      bookingBody(f, at(nextDay(), '16:00'), { customer_phone: '+4915112345030' }),
    );
    await worker().runOnce(50);
    const [text] = (await textsOf(booking.uuid)).filter((m) => m.kind === 'confirmed');
    expect(text).toMatchObject({ state: 'logged', last_response: NOT_SENT_NO_PROVIDER });
    expect(text!.segments).toBe(countSegments(text!.body!).segments);
    expect(text!.body).toContain('Haircut');
    expect(fake.creates.length).toBe(creates);
  });

  it('sums segments and price per month', async () => {
    const totals = await monthlyTextTotals(t.db, t.workspace.id);
    const usd = totals.find((row) => row.unit === 'USD');
    expect(usd!.messages).toBeGreaterThan(5);
    // Two messages had their price fetched after their callbacks (delivered, undelivered): 2 × 0.0079.
    expect(usd!.price_micros).toBe(15_800);
    // The gateway's two: 0.05 from its answer, 0.04 from a status callback.
    expect(totals.find((row) => row.unit === 'EUR')!.price_micros).toBe(90_000);
  });
});
