import type { Db } from '../db/client.js';
import type { Clock } from '../http/types.js';
import { claimDueDeliveries, fanOutEvents } from './deliveries.repository.js';
import { type Outcome, recordAttempt } from './delivery-outcome.js';
import { DEFAULT_TIMEOUT_MS, type SendResult, sendWebhook } from './http-sender.js';
import { activeSecrets, signedHeaders } from './signing.js';

export interface WorkerLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}

export interface WebhookWorkerOptions {
  db: Db;
  /** All scheduling reads this clock, so tests move time instead of sleeping. */
  clock: Clock;
  /** config.webhooksAllowPrivate. */
  allowPrivate: boolean;
  /** Per-request limit; 10 s in production, shorter in tests. */
  timeoutMs?: number;
  /** Pause between polls when there was nothing to do. */
  pollMs?: number;
  /** Deliveries claimed (and sent in parallel) per round. */
  batchSize?: number;
  /** Source of retry jitter, in [0, 1). */
  random?: () => number;
  logger?: WorkerLogger;
}

export interface RoundResult {
  /** Outbox events turned into deliveries. */
  dispatched: number;
  /** Attempts made, by outcome. */
  outcomes: Outcome[];
}

/**
 * The delivery worker (issue 5 §2). Each round fans new outbox events out into deliveries, then
 * claims due deliveries (short transaction, SKIP LOCKED), sends them outside any transaction and
 * records each result. Any number of workers, in any number of processes, may share one store.
 */
export class WebhookWorker {
  /** Per-request limit in ms (10 s unless configured). */
  readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly random: () => number;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.pollMs = options.pollMs ?? 300;
    this.batchSize = options.batchSize ?? 20;
    this.random = options.random ?? Math.random;
  }

  /** One round: fan out, claim, send, record. Resolves when every send of the round is recorded. */
  async runOnce(): Promise<RoundResult> {
    const { db, clock } = this.options;
    const dispatched = await fanOutEvents(db, clock.now(), 100);
    const now = clock.now();
    // The lease outlives the send's own timeout, so a live worker never loses its claim.
    const claimed = await claimDueDeliveries(db, now, now + this.timeoutMs + 30_000, this.batchSize);
    const outcomes = await Promise.all(
      claimed.map(async (delivery) => {
        const startedAt = clock.now();
        const secrets = activeSecrets(
          {
            secret: delivery.secret,
            previousSecret: delivery.previous_secret,
            previousSecretExpiresAt: delivery.previous_secret_expires_at,
          },
          startedAt,
        );
        const result: SendResult = await sendWebhook({
          url: delivery.url,
          body: delivery.body,
          headers: {
            ...signedHeaders(secrets, delivery.message_id, startedAt, delivery.body),
            // Not part of Standard Webhooks; tells receivers (and our tests) which try this is.
            'webhook-attempt': String(delivery.attempt_count),
          },
          timeoutMs: this.timeoutMs,
          allowPrivate: this.options.allowPrivate,
        });
        const outcome = await recordAttempt(db, delivery, result, startedAt, clock.now(), this.random);
        if (outcome !== 'succeeded') {
          this.options.logger?.warn(
            { delivery: delivery.id, attempt: delivery.attempt_count, status: result.statusCode, outcome },
            `webhook delivery attempt failed: ${result.error ?? ''}`,
          );
        }
        return outcome;
      }),
    );
    return { dispatched, outcomes };
  }

  /** Polls until stop(); a full batch goes straight into the next round. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        let busy = false;
        try {
          const round = await this.runOnce();
          busy = round.outcomes.length >= this.batchSize || round.dispatched >= 100;
        } catch (error) {
          // A store hiccup must not end the loop; the next round tries again.
          this.options.logger?.error({ err: error }, 'webhook worker round failed');
        }
        if (this.running && !busy) await this.pause();
      }
    })();
  }

  /** Stops polling and resolves once the round in progress (its sends included) has finished. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  private pause(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, this.pollMs);
    });
  }
}
