import { describe, expect, it } from 'vitest';
import { useWebhookKit } from '../../test/helpers/webhook-kit.js';
import { verifyReceived } from '../../test/helpers/webhook-receiver.js';

// `kit.t` is set in beforeAll: read it through `kit`, never destructure it.
const kit = useWebhookKit();
const { receiver, worker, createWebhook, emit, deliveries } = kit;
const clock = kit.clock;

const SECOND = 1000;

describe('SSRF guard at send time', () => {
  it('refuses private targets when WEBHOOKS_ALLOW_PRIVATE is off, by IP and by name', async () => {
    const hook = await receiver();
    const byIp = await createWebhook(hook.url);
    const byName = await createWebhook(hook.url.replace('127.0.0.1', 'localhost'));
    await emit(['booking-created']);
    const guarded = worker({ allowPrivate: false });
    expect((await guarded.runOnce()).outcomes).toEqual(['retrying', 'retrying']);
    expect(hook.requests).toHaveLength(0);
    for (const { uuid } of [byIp, byName]) {
      const [delivery] = await deliveries(uuid);
      expect(delivery).toMatchObject({ state: 'pending', last_status_code: null });
      expect(delivery!.last_error).toMatch(/non-public address/);
    }
    // The same deliveries go through once private targets are allowed (lookup by name included).
    clock.advance(6 * SECOND);
    expect((await worker().runOnce()).outcomes).toEqual(['succeeded', 'succeeded']);
    expect(hook.requests).toHaveLength(2);
  });
});

describe('visibility endpoints', () => {
  it('sends a signed test event through the pipeline and lists it', async () => {
    const hook = await receiver();
    const { uuid, secret } = await createWebhook(hook.url);
    const queued = await kit.t.call('POST', `/webhooks/${uuid}/test`);
    expect(queued.statusCode).toBe(202);
    expect(queued.json().data).toMatchObject({ event_type: 'test', state: 'pending', attempt_count: 0 });
    await worker().runOnce();
    const [request] = await hook.waitFor(1);
    expect(verifyReceived(secret, request!, clock.now())).toMatchObject({
      type: 'test',
      workspace: kit.t.workspace.slug,
      data: { webhook_uuid: uuid },
    });
    const [listed] = await deliveries(uuid);
    expect(listed).toMatchObject({
      uuid: queued.json().data.uuid,
      event_type: 'test',
      message_id: request!.id,
      state: 'succeeded',
      attempt_count: 1,
      last_status_code: 200,
    });
  });

  it('replays one delivery now, with the same webhook-id and a new attempt', async () => {
    const hook = await receiver();
    const { uuid } = await createWebhook(hook.url);
    await emit(['booking-created']);
    const w = worker();
    await w.runOnce();
    const [delivery] = await deliveries(uuid);
    const retried = await kit.t.call('POST', `/webhooks/${uuid}/deliveries/${delivery!.uuid}/retry`);
    expect(retried.statusCode).toBe(202);
    expect(retried.json().data).toMatchObject({ uuid: delivery!.uuid, state: 'pending' });
    await w.runOnce();
    const [first, replay] = await hook.waitFor(2);
    expect(replay!.id).toBe(first!.id);
    expect(replay!.attempt).toBe(2);
    expect(replay!.body).toBe(first!.body);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await kit.t.call('POST', `/webhooks/${uuid}/deliveries/${unknown}/retry`)).statusCode).toBe(404);
  });

  it('refuses to queue for a disabled webhook with 409', async () => {
    const hook = await receiver();
    const { uuid } = await createWebhook(hook.url);
    await kit.t.call('PUT', `/webhooks/${uuid}`, { enabled: false });
    const response = await kit.t.call('POST', `/webhooks/${uuid}/test`);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('webhook_disabled');
  });

  it('paginates the deliveries, newest first, and filters by state', async () => {
    const hook = await receiver();
    const { uuid } = await createWebhook(hook.url);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push((await kit.t.call('POST', `/webhooks/${uuid}/test`)).json().data.uuid);
    const page = await kit.t.call('GET', `/webhooks/${uuid}/deliveries?per_page=2&page=1`);
    expect(page.json().meta).toMatchObject({ current_page: 1, last_page: 2, per_page: 2, total: 3 });
    expect(page.json().data.map((d: { uuid: string }) => d.uuid)).toEqual([ids[2], ids[1]]);
    const second = await kit.t.call('GET', `/webhooks/${uuid}/deliveries?per_page=2&page=2`);
    expect(second.json().data.map((d: { uuid: string }) => d.uuid)).toEqual([ids[0]]);
    const succeeded = await kit.t.call('GET', `/webhooks/${uuid}/deliveries?state=succeeded`);
    expect(succeeded.json().meta.total).toBe(0);
    const bad = await kit.t.call('GET', `/webhooks/${uuid}/deliveries?state=exploded`);
    expect(bad.statusCode).toBe(422);
  });
});

describe('worker loop', () => {
  it('start() delivers without being driven, and stop() waits for the send in flight', async () => {
    const hook = await receiver(() => 'hang');
    const { uuid } = await createWebhook(hook.url);
    await emit(['booking-created']);
    const w = worker({ pollMs: 20, timeoutMs: 5000 });
    w.start();
    await hook.waitFor(1);
    // The receiver holds the request; stop() must not resolve before the attempt is recorded.
    let stopped = false;
    const stopping = w.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    await hook.stop(); // the receiver drops the connection; the attempt ends as a failure
    await stopping;
    const [delivery] = await deliveries(uuid);
    expect(delivery).toMatchObject({ state: 'pending', attempt_count: 1 });
    expect(delivery!.attempts).toHaveLength(1);
  });
});
