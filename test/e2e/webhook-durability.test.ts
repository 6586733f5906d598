import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScratchDatabase,
  demoApi,
  ensureServerBuilt,
  ownStore,
  ROOT,
  ServerProcess,
  type Store,
} from '../helpers/server-process.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * An event committed with its change survives the server dying before delivery
 * (the outbox). The first server runs without a worker, so "after the commit, before the
 * delivery" is certain rather than a race; it is killed with SIGKILL; the next start delivers.
 */
const API = '/api/public/v2';
// The Citus suite runs this too (test/citus/vitest.config.ts), on its shared distributed database.
const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.TEST_CITUS_URL;
let store: Store;
let cleanup: () => Promise<void>;
let receiver: WebhookReceiver;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  await ensureServerBuilt();
  receiver = await WebhookReceiver.start();
  ({ store, remove: cleanup } = await ownStore('durable'));
}, 180_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  await receiver?.close();
  await cleanup?.();
});

function start(worker: 'on' | 'off') {
  const server = new ServerProcess(store, { worker, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  servers.push(server);
  return server;
}

describe('outbox durability', () => {
  it('delivers an event committed before a SIGKILL once the server is back', async () => {
    const first = start('off');
    const call = demoApi(await first.started);

    expect((await call('POST', '/webhooks', { url: receiver.url, events: ['booking-created'] })).status).toBe(
      201,
    );
    expect((await call('PATCH', '/workspace', { staffer_selection: 'automatic' })).status).toBe(200);
    const location = (await call('GET', '/locations')).body.data[0];
    const service = (await call('GET', `/locations/${location.uuid}/services`)).body.data[0];
    const next = await call(
      'GET',
      `/locations/${location.uuid}/time-slots/next?service_uuid=${service.uuid}`,
    );
    const slot = next.body.dates[0].slots[0];
    const created = await call('POST', '/bookings', {
      reserved_on: slot.start_time,
      location_uuid: location.uuid,
      service_uuid: service.uuid,
      customer_phone: '+12125550123',
      customer_first_name: 'Kim',
      customer_last_name: 'Lee',
      customer_email: 'kim@example.com',
      booking_comment: 'first visit',
      booking_callback: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    expect(receiver.requests).toHaveLength(0);

    start('on');
    const [delivered] = await receiver.waitFor(1, 60_000);
    const event = delivered!.json() as { type: string; data: { booking: { uuid: string } } };
    expect(event.type).toBe('booking-created');
    expect(event.data.booking.uuid).toBe(created.body.data.uuid);
  }, 120_000);
});

/**
 * Workers in their own process, on PostgreSQL (the embedded store admits one process): an API process with
 * WORKER=off runs no worker, and `npm run worker` (worker-main) alone delivers what it committed.
 */
describe.skipIf(!adminUrl)('process model on PostgreSQL (needs TEST_DATABASE_URL)', () => {
  it('WORKER=off keeps deliveries out of the API process; a worker process delivers', async () => {
    const scratch = await createScratchDatabase(adminUrl!, 'kairos_worker');
    const api = new ServerProcess(
      { databaseUrl: scratch.url },
      { worker: 'off', logLevel: 'info', env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } },
    );
    servers.push(api);
    let worker: ReturnType<typeof spawn> | undefined;
    try {
      const { base, demo } = await api.started;
      const headers = {
        authorization: `Bearer ${demo!.apiKey}`,
        workspace: demo!.slug,
        'content-type': 'application/json',
      };
      const hook = await fetch(`${base}${API}/webhooks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: receiver.url, events: ['booking-created'] }),
      });
      expect(hook.status).toBe(201);
      const test = await fetch(
        `${base}${API}/webhooks/${((await hook.json()) as { data: { uuid: string } }).data.uuid}/test`,
        {
          method: 'POST',
          headers,
          body: '{}',
        },
      );
      expect(test.status).toBe(202);
      expect(api.stdout).not.toContain('webhook delivery worker started');

      const before = receiver.requests.length;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        DATABASE_URL: scratch.url,
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        LOG_LEVEL: 'info',
      };
      delete env.DATA_DIR;
      delete env.TEST_DATABASE_URL;
      worker = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'worker-main.js')], {
        env,
        stdio: 'ignore',
      });
      const received = await receiver.waitFor(before + 1, 60_000);
      expect((received[before]!.json() as { type: string }).type).toBe('test');
    } finally {
      worker?.kill('SIGTERM');
      await api.stop();
      await scratch.drop();
    }
  }, 120_000);
});
