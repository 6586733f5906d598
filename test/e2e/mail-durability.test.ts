import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoApi,
  ensureServerBuilt,
  ownStore,
  ServerProcess,
  type Store,
} from '../helpers/server-process.js';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';

/**
 * A booking's email survives the server dying before it was sent (the booking's
 * outbox event commits with it, and its emails are queued when a worker dispatches the event).
 * The first server runs without workers, so "after the commit, before the send" is certain; it is
 * killed with SIGKILL; the next start, with SMTP_URL, sends the email once, with the Message-ID
 * derived from booking, kind and revision.
 */
let store: Store;
let cleanup: () => Promise<void>;
let smtp: SmtpReceiver;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  await ensureServerBuilt();
  smtp = await SmtpReceiver.start();
  ({ store, remove: cleanup } = await ownStore('mail'));
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  await smtp?.close();
  await cleanup?.();
});

describe('mail outbox durability', () => {
  it('sends an email committed before a SIGKILL once the server is back', async () => {
    const first = new ServerProcess(store, { worker: 'off' });
    servers.push(first);
    const call = demoApi(await first.started);
    expect((await call('PATCH', '/workspace', { staffer_selection: 'automatic' })).status).toBe(200);
    const location = (await call('GET', '/locations')).body.data[0];
    const service = (await call('GET', `/locations/${location.uuid}/services`)).body.data[0];
    const next = await call(
      'GET',
      `/locations/${location.uuid}/time-slots/next?service_uuid=${service.uuid}`,
    );
    const created = await call('POST', '/bookings', {
      reserved_on: next.body.dates[0].slots[0].start_time,
      location_uuid: location.uuid,
      service_uuid: service.uuid,
      customer_phone: '+12125550123',
      customer_first_name: 'Kim',
      customer_email: 'kim@example.com',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    expect(smtp.accepted).toHaveLength(0);

    const second = new ServerProcess(store, {
      worker: 'on',
      env: { SMTP_URL: smtp.url, MAIL_FROM: 'Kairos <bookings@kairos.test>' },
    });
    servers.push(second);
    await second.started;
    const [mail] = await smtp.waitFor(1, 60_000);
    expect(mail!.messageId).toBe(`<${created.body.data.uuid}.confirmed.r1@kairos.test>`);
    expect(mail!.envelopeTo).toEqual(['kim@example.com']);
    expect(mail!.parsed.text).toContain('Hello Kim,');
  }, 120_000);
});
