import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScratchDatabase,
  ensureServerBuilt,
  migratedDataDir,
  ServerProcess,
  type Store,
} from '../helpers/server-process.js';
import { SmtpReceiver } from '../helpers/smtp-receiver.js';

/**
 * Issue 15 point 3: an email queued with its booking survives the server dying before it was sent
 * (the mail outbox is rows committed with the booking). The first server runs without workers, so
 * "after the commit, before the send" is certain; it is killed with SIGKILL; the next start, with
 * SMTP_URL, sends the email once, with the Message-ID derived from booking, kind and revision.
 */
const API = '/api/public/v2';
const adminUrl = process.env.TEST_DATABASE_URL;
let store: Store;
let cleanup: () => Promise<void>;
let smtp: SmtpReceiver;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  await ensureServerBuilt();
  smtp = await SmtpReceiver.start();
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'kairos_mail');
    store = { databaseUrl: scratch.url };
    cleanup = scratch.drop;
  } else {
    const dataDir = migratedDataDir('kairos-mail-');
    store = { dataDir };
    cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
  }
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
    const { base, demo } = await first.started;
    expect(demo, first.log).toBeDefined();
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${base}${API}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${demo!.apiKey}`,
          workspace: demo!.slug,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      // biome-ignore lint/suspicious/noExplicitAny: a JSON answer read field by field in this test.
      return { status: response.status, body: (await response.json()) as Record<string, any> };
    };
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
