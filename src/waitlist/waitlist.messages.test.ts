import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, change, NOW, setWorkspace } from '../../test/bookings/bookings-kit.js';
import { type BookingFixture, bookingFixture } from '../../test/helpers/booking-fixture.js';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { FakeTwilio } from '../../test/helpers/fake-twilio.js';
import { SmtpReceiver } from '../../test/helpers/smtp-receiver.js';
import { CLI_ACTOR } from '../audit/audit.service.js';
import { type Config, loadConfig } from '../config.js';
import { MailWorker } from '../notifications/mail-worker.js';
import { smtpSender } from '../notifications/smtp-sender.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { updateTextSettings } from '../text-messages/text-settings.service.js';
import { TextWorker } from '../text-messages/text-worker.js';
import { outboxHandlers } from '../workers.js';
import { openWritePath } from '../write-path.js';

// An offer's email and text land: queued from its outbox event, sent by the real mail worker to
// a real SMTP server on loopback and by the text worker through the twilio package to a fake
// Twilio, each once, in the language the person joined in, with the claim link.
const PUBLIC = 'https://book.example';
let t: TestApp;
let f: BookingFixture;
let clock: FixedClock;
let config: Config;
let fake: FakeTwilio;
let smtp: SmtpReceiver;

beforeAll(async () => {
  clock = new FixedClock(NOW);
  fake = await FakeTwilio.start();
  smtp = await SmtpReceiver.start();
  config = {
    ...loadConfig({}),
    worker: 'off',
    apiRateLimitPerMinute: 0,
    secretKey: 'test-secret-key-of-at-least-32-characters',
    twilioApiBase: fake.origin,
  };
  t = await buildTestApp({ clock, config });
  f = await bookingFixture(t);
  await setWorkspace(t, { staffer_selection: 'required' });
  await updateTextSettings(
    openWritePath(t.db).uow,
    t.workspace.id,
    {
      enabled: true,
      provider: 'twilio',
      customerTexts: [],
      reminderHours: [],
      whatsapp: false,
      sender: '+15005550006',
      twilioAccountSid: fake.accountSid,
      twilioAuthToken: fake.authToken,
      gatewayUrl: '',
      gatewaySecret: '',
      consent: 'optional',
    },
    config,
    clock.now(),
    CLI_ACTOR,
  );
});
afterAll(async () => {
  await smtp.close();
  await fake.close();
  await t.close();
});

const dispatch = () => dispatchOutbox(t.db, outboxHandlers(), clock.now(), 1000);

describe('the offer reaches the person by email and text', () => {
  it('sends one email and one text with the claim link and the end of the hold', async () => {
    const day = '2026-09-08';
    await book(
      t,
      bookingBody(f, at(day, '10:00'), { staffer_uuid: f.ben.id, customer_phone: '+4915100001001' }),
    );
    const taken = await book(t, bookingBody(f, at(day, '10:00'), { customer_phone: '+4915100001002' }));
    // Joined in German (as the booking page would store it): the messages speak German.
    const joined = await t.call('POST', '/waitlist', {
      location_uuid: f.location.id,
      service_uuid: f.haircut.id,
      customer_phone: '+4915100001003',
      customer_first_name: 'Greta',
      customer_email: 'greta@example.com',
      any_time: true,
    });
    expect(joined.statusCode, joined.body).toBe(201);
    await t.db
      .updateTable('waitlist_entries')
      .set({ language: 'de' })
      .where('id', '=', joined.json().data.uuid)
      .execute();
    await change(t, 'PUT', `/bookings/${taken.uuid}/status/cancel`, {});
    await dispatch(); // the cancel: the offer is made
    await dispatch(); // the offer's event: its email and text are queued
    await dispatch(); // again: nothing more is queued

    const queuedMail = await t.db
      .selectFrom('mail_messages')
      .select(['kind', 'recipient'])
      .where('workspace_id', '=', t.workspace.id)
      .where('kind', '=', 'waitlist_offer')
      .execute();
    expect(queuedMail).toEqual([{ kind: 'waitlist_offer', recipient: 'greta@example.com' }]);

    const sender = smtpSender(smtp.url);
    const mailWorker = new MailWorker({
      handlers: outboxHandlers(),
      db: t.db,
      clock,
      sender,
      mailFrom: 'Studio <bookings@studio.example>',
      publicBase: PUBLIC,
      random: () => 0.5,
      // One worker id for both workers: they share the partition leases.
      workerId: 'waitlist-worker',
    });
    const sentMail = (await mailWorker.runOnce()).outcomes;
    expect(sentMail.filter((o) => o === 'sent')).toHaveLength(1);
    const [mail] = await smtp.waitFor(1);
    sender.close();
    const [offer] = (await t.call('GET', `/waitlist/offers?entry_uuid=${joined.json().data.uuid}`)).json()
      .data;
    const link = new RegExp(`${PUBLIC}/book/${t.workspace.slug}/waitlist/offer/[A-Za-z0-9_-]{44}\\?lang=de`);
    expect(mail!.parsed.subject).toBe(
      'Ein Termin ist für Sie frei: Haircut, Dienstag, 8. September 2026 um 10:00 (GMT+2), Berlin (Europe/Berlin)',
    );
    expect(mail!.parsed.text).toContain('Hallo Greta,');
    // Held 30 minutes from the dispatch at 10:00 Berlin (08:00 UTC): until 10:30 Berlin.
    expect(mail!.parsed.text).toContain(
      'Er ist bis Dienstag, 1. September 2026 um 10:30 (GMT+2) für Sie reserviert',
    );
    expect(mail!.parsed.text).toMatch(link);
    expect(mail!.parsed.attachments).toEqual([]);
    expect(offer.held_until).toBe('2026-09-01T08:30:00Z');

    const textWorker = new TextWorker({
      handlers: outboxHandlers(),
      db: t.db,
      clock,
      publicBase: PUBLIC,
      config,
      random: () => 0.5,
      workerId: 'waitlist-worker',
    });
    const before = fake.creates.length;
    const sentTexts = (await textWorker.runOnce(10)).outcomes;
    expect(sentTexts.filter((o) => o === 'sent')).toHaveLength(1);
    const creates = fake.creates.slice(before);
    expect(creates).toHaveLength(1);
    expect(creates[0]!.To).toBe('+4915100001003');
    expect(creates[0]!.Body).toMatch(
      /^Test Studio: Haircut am Di\., 8\. Sept\., 10:00 MESZ ist bis 10:30 für Sie frei\. Buchen: /,
    );
    expect(creates[0]!.Body).toMatch(link);

    // The offer's messages are the customer's data: exported, and erased with them.
    const customer = joined.json().data.customer.uuid;
    const exported = (await t.call('GET', `/customers/${customer}/export`)).json();
    expect(exported.messages.map((m: { channel: string; kind: string }) => [m.channel, m.kind])).toEqual([
      ['email', 'waitlist_offer'],
      ['sms', 'waitlist_offer'],
    ]);
    expect((await t.call('POST', `/customers/${customer}/erase`)).statusCode).toBe(200);
    for (const table of ['mail_messages', 'text_messages'] as const) {
      const rows = await t.db
        .selectFrom(table)
        .selectAll()
        .where('workspace_id', '=', t.workspace.id)
        .execute();
      const text = JSON.stringify(rows);
      expect(
        text.includes('greta@example.com') || text.includes('4915100001003') || text.includes('Greta'),
        table,
      ).toBe(false);
    }
  });
});
