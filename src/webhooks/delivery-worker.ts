import { type LeasedQueue, QueueWorker, type QueueWorkerOptions } from '../outbox/queue-worker.js';
import type { Db } from '../platform/db/client.js';
import type { Clock } from '../platform/http/types.js';
import { type ClaimedDelivery, claimDueDeliveries } from './deliveries.repository.js';
import { countAttempt } from './delivery-metrics.js';
import type { Outcome } from './delivery-outcome.rules.js';
import { recordAttempt } from './delivery-outcome.service.js';
import { DEFAULT_TIMEOUT_MS, type SendResult, sendWebhook } from './http-sender.js';
import { activeSecrets, signedHeaders } from './signing.js';

export interface WebhookWorkerOptions extends QueueWorkerOptions {
  /** config.webhooksAllowPrivate. */
  allowPrivate: boolean;
  /** Per-request limit; 10 s in production, shorter in tests. */
  timeoutMs?: number;
  /** Source of retry jitter, in [0, 1). */
  random?: () => number;
}

/**
 * The delivery worker: the outbox's leased-queue worker (src/outbox/queue-worker.ts)
 * over webhook deliveries. Each round claims due deliveries (a short statement per workspace),
 * sends them outside any transaction and records each result as it comes.
 */
export class WebhookWorker extends QueueWorker<ClaimedDelivery, Outcome> {
  /** Per-request limit in ms (10 s unless configured). */
  readonly timeoutMs: number;

  constructor(options: WebhookWorkerOptions) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    super(deliveryQueue(options, timeoutMs), options);
    this.timeoutMs = timeoutMs;
  }
}

function deliveryQueue(
  options: WebhookWorkerOptions,
  timeoutMs: number,
): LeasedQueue<ClaimedDelivery, Outcome> {
  const { db, clock, allowPrivate, logger } = options;
  const random = options.random ?? Math.random;
  return {
    name: 'webhook',
    // The claim outlives the send's own timeout, so a live worker never loses it.
    claimMs: timeoutMs + 30_000,
    claim: (now, leaseUntil, limit, partitions) => claimDueDeliveries(db, now, leaseUntil, limit, partitions),
    attempt: (deliveries) =>
      Promise.all(
        deliveries.map(async (delivery) => {
          const { outcome, result } = await deliver(db, clock, delivery, { timeoutMs, allowPrivate, random });
          countAttempt(outcome);
          if (outcome !== 'succeeded') {
            logger?.warn(
              { delivery: delivery.id, attempt: delivery.attempt_count, status: result.statusCode, outcome },
              `webhook delivery attempt failed: ${result.error ?? ''}`,
            );
          }
          return outcome;
        }),
      ),
  };
}

/** One attempt: sign, send, record; the result is recorded as soon as its send ends. */
async function deliver(
  db: Db,
  clock: Clock,
  delivery: ClaimedDelivery,
  options: { timeoutMs: number; allowPrivate: boolean; random: () => number },
): Promise<{ outcome: Outcome; result: SendResult }> {
  const startedAt = clock.now();
  const secrets = activeSecrets(
    {
      secret: delivery.secret,
      previousSecret: delivery.previous_secret,
      previousSecretExpiresAt: delivery.previous_secret_expires_at,
    },
    startedAt,
  );
  const result = await sendWebhook({
    url: delivery.url,
    body: delivery.body,
    headers: {
      // The subscription's own headers first: nothing below can be overridden by them.
      ...delivery.headers,
      ...signedHeaders(secrets, delivery.message_id, startedAt, delivery.body),
      // Not part of Standard Webhooks; tells receivers (and our tests) which try this is.
      'webhook-attempt': String(delivery.attempt_count),
    },
    timeoutMs: options.timeoutMs,
    allowPrivate: options.allowPrivate,
  });
  const outcome = await recordAttempt(db, delivery, result, startedAt, clock.now(), options.random);
  return { outcome, result };
}
