import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { dispatchOutbox } from '../../src/outbox/outbox-dispatch.service.js';
import { attemptDueOperations } from '../../src/payments/payment-operations.service.js';
import { connectStripe } from '../../src/payments/payment-settings.service.js';
import { openDatabase } from '../../src/platform/db/client.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { outboxHandlers } from '../../src/workers.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { FakeStripe } from '../helpers/fake-stripe.js';
import { ensureServerBuilt, ServerProcess } from '../helpers/server-process.js';

/**
 * The built server, its worker on, killed (SIGKILL) while Stripe has made a refund and before its
 * answer reached us: after the claim's lease, the next attempt sends the same Idempotency-Key,
 * Stripe answers what it did the first time, and the refund lands once in the order. The customer
 * gets their money back once, not twice, and nothing is lost.
 */
const SECRET_KEY = 'payment-crash-secret-key-of-32-characters';
const dirs: string[] = [];
let fake: FakeStripe | undefined;
let server: ServerProcess | undefined;
afterAll(async () => {
  if (server?.running) server.child.kill('SIGKILL');
  await fake?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a server killed mid-refund', () => {
  it('refunds once', async () => {
    await ensureServerBuilt();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'kairos-payment-crash-'));
    dirs.push(dataDir);
    fake = await FakeStripe.start();
    fake.autoDeliver = false;
    const config: Config = {
      ...loadConfig({}),
      worker: 'off',
      apiRateLimitPerMinute: 0,
      dataDir,
      secretKey: SECRET_KEY,
      stripeApiBase: fake.origin,
    };

    // Set up, in this process: a prepaid booking, canceled inside the free period: a refund is owed.
    let database = await openDatabase({ dataDir, lockOwner: 'test' });
    await migrate(database);
    const { uow } = openWritePath(database.db);
    const { workspace, apiKey } = await createWorkspace(uow, { slug: 'crash', name: 'Crash Studio' });
    await connectStripe(
      uow,
      workspace.id,
      { type: 'user', id: null },
      { secret_key: fake.secretKey, webhook_secret: 'whsec_crashTest0123456' },
      config,
    );
    const f = await bookingFixture({ db: database.db, workspace } as Parameters<typeof bookingFixture>[0]);
    const app = await buildApp({ database, config });
    const call = async (method: string, url: string, payload?: object) =>
      app.inject({
        method: method as 'GET',
        url: `/api/public/v2${url}`,
        headers: { authorization: `Bearer ${apiKey.secret}`, workspace: workspace.slug },
        ...(payload ? { payload } : {}),
      });
    expect(
      (
        await call('PUT', `/services/${f.haircut.id}/payment_policy`, {
          collect: 'prepayment',
          preset: 'moderate',
        })
      ).statusCode,
    ).toBe(200);
    const start = new Date(Date.now() + 5 * 86_400_000);
    start.setUTCHours(10, 0, 0, 0);
    const created = await call('POST', '/bookings', {
      reserved_on: start.toISOString().replace('.000', ''),
      location_uuid: f.location.id,
      service_uuid: f.haircut.id,
      staffer_uuid: f.anna.id,
      customer_phone: '+4915112340000',
      collect_payment: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const bookingId = created.json().data.uuid as string;
    const sessionId = (created.json().data.links as { type: string; link: string }[])
      .find((l) => l.type === 'payment')
      ?.link.split('/')
      .pop() as string;
    fake.pay(sessionId);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/hooks/payments/${workspace.id}/stripe/return?session=${sessionId}`,
        })
      ).statusCode,
    ).toBe(303);
    expect(
      (await call('PUT', `/bookings/${bookingId}/status/cancel`, { cancel_reason: 'canceled' })).statusCode,
    ).toBe(200);
    await dispatchOutbox(database.db, outboxHandlers(), Date.now(), 1000);
    await app.close();
    await database.close();

    // The server's worker sends the refund; Stripe makes it and holds its answer; the server dies.
    fake.fault = (request) => (request.path === '/v1/refunds' ? 'hang-after-commit' : undefined);
    server = new ServerProcess(
      { dataDir },
      { worker: 'on', env: { SECRET_KEY, STRIPE_API_BASE: fake.origin } },
    );
    await server.started;
    const first = await fake.waitForRequest((request) => request.path === '/v1/refunds');
    const exit = await server.stop('SIGKILL');
    expect(exit.signal).toBe('SIGKILL');
    expect(fake.refunds.size).toBe(1);

    // Nothing recorded the refund: the operation is still claimed, and the order shows no refund.
    fake.fault = () => undefined;
    database = await openDatabase({ dataDir, lockOwner: 'test' });
    try {
      const claimed = await database.db
        .selectFrom('payment_operations')
        .selectAll()
        .where('workspace_id', '=', workspace.id)
        .where('kind', '=', 'refund')
        .executeTakeFirstOrThrow();
      expect(claimed.state).toBe('sending');
      const refundsIn = async () =>
        database.db
          .selectFrom('payments')
          .select(['kind', 'amount', 'status'])
          .where('workspace_id', '=', workspace.id)
          .where('booking_id', '=', bookingId)
          .where('kind', '=', 'refund')
          .execute();
      expect(await refundsIn()).toEqual([]);

      // After the claim's lease, the next round sends it again with the same key.
      const after = claimed.next_attempt_at.getTime() + 1_000;
      const sent = await attemptDueOperations(database.db, openWritePath(database.db).uow, config, after);
      expect(sent).toBe(1);
      const refundCalls = fake.requests.filter((request) => request.path === '/v1/refunds');
      expect(refundCalls).toHaveLength(2);
      expect(refundCalls[1]?.idempotencyKey).toBe(first.idempotencyKey);
      expect(fake.refunds.size).toBe(1);
      expect(await refundsIn()).toEqual([{ kind: 'refund', amount: 9000, status: 'succeeded' }]);
      // A further round finds nothing owed.
      expect(
        await attemptDueOperations(database.db, openWritePath(database.db).uow, config, after + 60_000),
      ).toBe(0);
      expect(fake.netCharged()).toBe(0);
    } finally {
      await database.close();
    }
  }, 120_000);
});
