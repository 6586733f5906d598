import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { BookingEventType } from '../../src/bookings/booking-events.service.js';
import { WebhookWorker, type WebhookWorkerOptions } from '../../src/webhooks/delivery-worker.js';
import { outboxHandlers } from '../../src/workers.js';
import { buildTestApp, type TestApp } from './build-test-app.js';
import { FixedClock } from './clock.js';
import { emitBookingEvents, insertBookingRow } from './webhook-events.js';
import { type Responder, WebhookReceiver } from './webhook-receiver.js';

export interface ListedDelivery {
  uuid: string;
  event_type: string;
  message_id: string;
  state: string;
  attempt_count: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  attempts: { attempt: number; status_code: number | null; error: string | null }[];
}

/**
 * Per-file set-up for webhook delivery tests: an app that allows private targets (receivers run
 * on 127.0.0.1), a clock the tests move, receivers closed and webhooks deleted after each test
 * (so no test's deliveries reach another's receiver). Call at the top level of a test file.
 */
export function useWebhookKit() {
  const kit = {
    t: undefined as unknown as TestApp,
    clock: new FixedClock(new Date().toISOString()),
    receivers: [] as WebhookReceiver[],

    async receiver(respond?: Responder): Promise<WebhookReceiver> {
      const started = await WebhookReceiver.start(respond);
      kit.receivers.push(started);
      return started;
    },

    worker(options: Partial<WebhookWorkerOptions> = {}): WebhookWorker {
      return new WebhookWorker({
        handlers: outboxHandlers(),
        db: kit.t.db,
        clock: kit.clock,
        allowPrivate: true,
        timeoutMs: 2000,
        ...options,
      });
    },

    async createWebhook(url: string, events?: string[]): Promise<{ uuid: string; secret: string }> {
      const response = await kit.t.call('POST', '/webhooks', { url, ...(events ? { events } : {}) });
      expect(response.statusCode, response.body).toBe(201);
      return response.json().data;
    },

    /** A new booking row and its events, committed through the outbox writer. */
    async emit(types: BookingEventType[]): Promise<string> {
      const bookingId = await insertBookingRow(kit.t.db, kit.t.workspace.id);
      await emitBookingEvents(kit.t.db, kit.t.workspace, bookingId, types);
      return bookingId;
    },

    async deliveries(webhookUuid: string): Promise<ListedDelivery[]> {
      const response = await kit.t.call('GET', `/webhooks/${webhookUuid}/deliveries`);
      expect(response.statusCode).toBe(200);
      return response.json().data;
    },

    async webhook(uuid: string) {
      return (await kit.t.call('GET', `/webhooks/${uuid}`)).json().data;
    },
  };
  beforeAll(async () => {
    kit.t = await buildTestApp({ clock: kit.clock, config: { webhooksAllowPrivate: true } });
  });
  afterEach(async () => {
    await Promise.all(kit.receivers.splice(0).map((receiver) => receiver.close()));
    await kit.t.db.deleteFrom('webhooks').execute();
  });
  afterAll(() => kit.t.close());
  return kit;
}
