// The pay step (issue 26 point 8): POST /bookings that collects a deposit against a plain
// POST /bookings, on one app, in one run. The collecting create adds one provider round trip (the
// Stripe Checkout Session, made through the official stripe package over real HTTP to the fake
// Stripe of test/helpers/fake-stripe.ts on loopback) and the hold's bookkeeping; the ratio of the
// two medians is the price of taking a deposit. Requests are sequential (one at a time: latency,
// not throughput) and alternate plain / collecting, so a drift of the machine weighs on both alike.
// Alone: `BENCH_ONLY=payments npm run bench`. In-process, on the embedded store in memory: the
// fake Stripe shares the process (its time is in the collecting side's figure, as a real
// provider's network time would be).
import { buildApp } from '../src/app/app.js';
import { loadConfig } from '../src/config.js';
import { connectStripe } from '../src/payments/payment-settings.service.js';
import { openDatabase } from '../src/platform/db/client.js';
import { migrate } from '../src/platform/db/migrate.js';
import { createWorkspace } from '../src/workspaces/workspaces.service.js';
import { openWritePath } from '../src/write-path.js';
import {
  createLocation,
  createService,
  createStaffer,
  EVERY_DAY_9_TO_17,
} from '../test/helpers/factories.js';
import { FakeStripe } from '../test/helpers/fake-stripe.js';

export interface PaymentsBenchResult {
  requests: number;
  plainMedianMs: number;
  payMedianMs: number;
  plainP95Ms: number;
  payP95Ms: number;
  /** pay / plain, medians. */
  ratio: number;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

export async function runPaymentsBench(
  log: (line: string) => void,
  pairs = 150,
): Promise<PaymentsBenchResult> {
  log(
    'payments: POST /bookings collecting a deposit (one Stripe round trip to a fake on loopback) vs a plain create',
  );
  const fake = await FakeStripe.start();
  fake.autoDeliver = false;
  const database = await openDatabase({});
  await migrate(database);
  const config = {
    ...loadConfig({}),
    worker: 'off' as const,
    apiRateLimitPerMinute: 0,
    secretKey: 'bench-payments-secret-key-0123456789abcdef',
    stripeApiBase: fake.origin,
  };
  const app = await buildApp({ database, config });
  await app.ready();
  try {
    const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
      slug: 'bench-pay',
      name: 'Bench',
    });
    const headers = { authorization: `Bearer ${apiKey.secret}`, workspace: workspace.slug };
    await connectStripe(
      openWritePath(database.db).uow,
      workspace.id,
      { type: 'system', id: null },
      { secret_key: fake.secretKey, webhook_secret: 'whsec_benchPayments01' },
      config,
    );
    const location = await createLocation(database.db, workspace.id, { timezone: 'UTC' });
    const service = await createService(database.db, workspace.id, [location.id], {
      name: 'Cut',
      price: 9000,
      durationMinutes: 15,
    });
    const staffers: { id: string }[] = [];
    for (let i = 0; i < 8; i += 1)
      staffers.push(
        await createStaffer(database.db, workspace.id, location.id, [service.id], {
          firstName: `S${i}`,
          weekly: EVERY_DAY_9_TO_17,
        }),
      );
    const policy = await app.inject({
      method: 'PUT',
      url: `/api/public/v2/services/${service.id}/payment_policy`,
      headers,
      payload: { collect: 'deposit', deposit_type: 'percent', deposit_percent: 20, preset: 'moderate' },
    });
    if (policy.statusCode !== 200) throw new Error(`policy: ${policy.body}`);
    // Distinct slots: 8 staffers × 32 quarter hours a day, from tomorrow on.
    let slot = 0;
    const firstDay = Math.floor(Date.now() / 86_400_000 + 1) * 86_400_000;
    const nextBody = (collect: boolean) => {
      const index = slot++;
      const day = Math.floor(index / (8 * 32));
      const staffer = staffers[index % 8]!;
      const quarter = Math.floor(index / 8) % 32;
      const start = new Date(firstDay + day * 86_400_000 + 9 * 3_600_000 + quarter * 15 * 60_000)
        .toISOString()
        .replace('.000Z', 'Z');
      return {
        reserved_on: start,
        location_uuid: location.id,
        service_uuid: service.id,
        staffer_uuid: staffer.id,
        customer_phone: `+49151${String(1_000_000 + index).padStart(8, '0')}`,
        ...(collect ? { collect_payment: true } : {}),
      };
    };
    const time = async (collect: boolean) => {
      const started = performance.now();
      const response = await app.inject({
        method: 'POST',
        url: '/api/public/v2/bookings',
        headers,
        payload: nextBody(collect),
      });
      const elapsed = performance.now() - started;
      if (response.statusCode !== 201) throw new Error(`create: ${response.statusCode} ${response.body}`);
      return elapsed;
    };
    for (let i = 0; i < 20; i += 1) await time(i % 2 === 0); // warm-up
    const plain: number[] = [];
    const pay: number[] = [];
    for (let i = 0; i < pairs; i += 1) {
      if (i % 2 === 0) {
        plain.push(await time(false));
        pay.push(await time(true));
      } else {
        pay.push(await time(true));
        plain.push(await time(false));
      }
    }
    const result = {
      requests: pairs,
      plainMedianMs: quantile(plain, 0.5),
      payMedianMs: quantile(pay, 0.5),
      plainP95Ms: quantile(plain, 0.95),
      payP95Ms: quantile(pay, 0.95),
      ratio: quantile(pay, 0.5) / quantile(plain, 0.5),
    };
    log(
      `payments: plain median ${result.plainMedianMs.toFixed(1)} ms (p95 ${result.plainP95Ms.toFixed(1)}), ` +
        `collecting median ${result.payMedianMs.toFixed(1)} ms (p95 ${result.payP95Ms.toFixed(1)}), ratio ${result.ratio.toFixed(2)} ` +
        `(${pairs} each; Checkout Sessions made: ${fake.sessions.size})`,
    );
    return result;
  } finally {
    await app.close();
    await database.close();
    await fake.stop();
  }
}
