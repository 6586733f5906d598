import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { databaseUrlOf } from '../../test/helpers/test-db.js';
import { emitBookingEvents, insertBookingRow } from '../../test/helpers/webhook-events.js';
import { WebhookReceiver } from '../../test/helpers/webhook-receiver.js';
import { EVENT_TYPES_BY_SUBJECT } from '../outbox/event-types.js';
import { type Database, type Db, openDatabase } from '../platform/db/client.js';
import { outboxHandlers } from '../workers.js';
import { claimDueDeliveries } from './deliveries.repository.js';
import { recordAttempt } from './delivery-outcome.service.js';
import { WebhookWorker } from './delivery-worker.js';

let t: TestApp;
const clock = new FixedClock(new Date().toISOString());
/** A second connection to the same store: its own pool on PostgreSQL, the same store on PGlite. */
let second: Database | undefined;
let secondDb: Db;
beforeAll(async () => {
  t = await buildTestApp({ clock, config: { webhooksAllowPrivate: true } });
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(t.db);
    second = await openDatabase({ databaseUrl: databaseUrlOf(url, rows[0]!.name), poolSize: 10 });
    secondDb = second.db;
  } else {
    secondDb = t.db;
  }
});
afterAll(async () => {
  await second?.close();
  await t.close();
});

async function createWebhook(url: string): Promise<string> {
  const response = await t.call('POST', '/webhooks', { url });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.uuid;
}

describe('two workers on one store', () => {
  it('never send one attempt twice, racing over many due deliveries and their retries', async () => {
    // Every first attempt fails, so the retries race as well.
    const respond = (request: { attempt: number }) => ({ status: request.attempt === 1 ? 500 : 200 });
    const receivers = [await WebhookReceiver.start(respond), await WebhookReceiver.start(respond)];
    try {
      for (const receiver of receivers) await createWebhook(receiver.url);
      const bookingId = await insertBookingRow(t.db, t.workspace.id);
      const bookingTypes = EVENT_TYPES_BY_SUBJECT.booking;
      const types = Array.from({ length: 40 }, (_, i) => bookingTypes[i % bookingTypes.length]!);
      await emitBookingEvents(t.db, t.workspace, bookingId, types);

      // Small batches and two rounds per worker at a time: many claims overlap.
      const workers = [t.db, secondDb].map(
        (db) =>
          new WebhookWorker({
            handlers: outboxHandlers(),
            db,
            clock,
            allowPrivate: true,
            timeoutMs: 5000,
            batchSize: 3,
          }),
      );
      for (let pass = 0; pass < 200; pass += 1) {
        const rounds = await Promise.all(workers.flatMap((worker) => [worker.runOnce(), worker.runOnce()]));
        if (rounds.every((round) => round.dispatched === 0 && round.outcomes.length === 0)) {
          const pending = await t.db
            .selectFrom('webhook_deliveries')
            .select('id')
            .where('state', '<>', 'succeeded')
            .execute();
          if (pending.length === 0) break;
          clock.advance(6000);
        }
      }

      for (const receiver of receivers) {
        const counts = receiver.receiptCounts();
        expect([...counts.values()].every((count) => count === 1)).toBe(true);
        expect(receiver.requests).toHaveLength(80);
        const ids = new Set(receiver.requests.map((request) => request.id));
        expect(ids.size).toBe(40);
        for (const id of ids) {
          expect(counts.get(`${id}#1`)).toBe(1);
          expect(counts.get(`${id}#2`)).toBe(1);
        }
        const sequences = receiver.requests
          .filter((request) => request.attempt === 2)
          .map((request) => request.json().sequence as number)
          .sort((a, b) => a - b);
        expect(sequences).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      }
      const attempts = await t.db.selectFrom('webhook_delivery_attempts').select('id').execute();
      expect(attempts).toHaveLength(160);
      const states = await t.db.selectFrom('webhook_deliveries').select('state').distinct().execute();
      expect(states).toEqual([{ state: 'succeeded' }]);
    } finally {
      await Promise.all(receivers.map((receiver) => receiver.close()));
      await t.db.deleteFrom('webhooks').execute();
    }
  });

  it('takes over a delivery whose worker died mid-send once its lease runs out', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      await createWebhook(receiver.url);
      const bookingId = await insertBookingRow(t.db, t.workspace.id);
      await emitBookingEvents(t.db, t.workspace, bookingId, ['booking-created']);
      const survivor = new WebhookWorker({
        handlers: outboxHandlers(),
        db: secondDb,
        clock,
        allowPrivate: true,
        timeoutMs: 1000,
      });
      // A worker that claims and then "dies": it never sends nor records.
      expect((await survivor.runOnce()).outcomes).toEqual(['succeeded']);
      await t.db
        .updateTable('webhook_deliveries')
        .set({ state: 'pending', next_attempt_at: new Date(clock.now()) })
        .execute();
      const [dead] = await claimDueDeliveries(t.db, clock.now(), clock.now() + 31_000, 10);
      expect(dead!.attempt_count).toBe(2);

      expect((await survivor.runOnce()).outcomes).toEqual([]); // still leased
      clock.advance(31_000);
      expect((await survivor.runOnce()).outcomes).toEqual(['succeeded']);
      const attempts = receiver.requests.map((request) => request.attempt);
      expect(attempts).toEqual([1, 3]);

      // The dead worker's late result must not overwrite the newer claim's.
      const late = await recordAttempt(
        t.db,
        dead!,
        { ok: false, statusCode: 500, durationMs: 1, error: 'HTTP 500.', retryAfter: undefined },
        clock.now(),
        clock.now(),
        Math.random,
      );
      expect(late).toBe('lease_lost');
      const delivery = await t.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();
      expect(delivery).toMatchObject({ state: 'succeeded', attempt_count: 3, last_status_code: 200 });
    } finally {
      await receiver.close();
      await t.db.deleteFrom('webhooks').execute();
    }
  });
});
