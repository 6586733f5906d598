import type { HandlerRegistry } from '../outbox/handlers.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { PartitionLeases } from '../outbox/partition-leases.service.js';
import type { WorkerLogger } from '../outbox/queue-worker.js';
import { type Db, isStoreUnavailable } from '../platform/db/client.js';
import type { Clock } from '../platform/http/types.js';
import { claimDueDeliveries } from './deliveries.repository.js';
import { countAttempt } from './delivery-metrics.js';
import type { Outcome } from './delivery-outcome.rules.js';
import { recordAttempt } from './delivery-outcome.service.js';
import { DEFAULT_TIMEOUT_MS, type SendResult, sendWebhook } from './http-sender.js';
import { activeSecrets, signedHeaders } from './signing.js';

/** Between rounds while the store is unreachable: often enough to resume within a second or so. */
const STORE_RETRY_MS = 1_000;

export interface WebhookWorkerOptions {
  db: Db;
  /** All scheduling reads this clock, so tests move time instead of sleeping. */
  clock: Clock;
  /** The outbox handlers each round dispatches to before it claims (src/workers.ts). */
  handlers: HandlerRegistry;
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
  /** Who holds partition leases; workers with distinct ids split the outbox partitions. */
  workerId?: string;
  /** How long a partition lease lasts unless renewed (a dead worker's run out after it). */
  leaseMs?: number;
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
  /** The outbox partitions this worker works on (issue 17.3). */
  readonly leases: PartitionLeases;
  /** Set while the store is unreachable: the worker waits longer between rounds and logs once. */
  private storeDownSince: number | undefined;

  constructor(private readonly options: WebhookWorkerOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.pollMs = options.pollMs ?? 300;
    this.batchSize = options.batchSize ?? 20;
    this.random = options.random ?? Math.random;
    this.leases = new PartitionLeases(options.db, options.clock, options.workerId, options.leaseMs);
  }

  /** One round: fan out, claim, send, record. Resolves when every send of the round is recorded. */
  async runOnce(): Promise<RoundResult> {
    const { db, clock } = this.options;
    // Only this worker's partitions: no statement locks rows of more than one workspace (DESIGN §8).
    const partitions = await this.leases.current();
    const dispatched = await dispatchOutbox(
      db,
      this.options.handlers,
      clock.now(),
      100,
      partitions,
      this.options.logger,
    );
    const now = clock.now();
    // The lease outlives the send's own timeout, so a live worker never loses its claim.
    const claimed = await claimDueDeliveries(
      db,
      now,
      now + this.timeoutMs + 30_000,
      this.batchSize,
      partitions,
    );
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
            // The subscription's own headers first: nothing below can be overridden by them.
            ...delivery.headers,
            ...signedHeaders(secrets, delivery.message_id, startedAt, delivery.body),
            // Not part of Standard Webhooks; tells receivers (and our tests) which try this is.
            'webhook-attempt': String(delivery.attempt_count),
          },
          timeoutMs: this.timeoutMs,
          allowPrivate: this.options.allowPrivate,
        });
        const outcome = await recordAttempt(db, delivery, result, startedAt, clock.now(), this.random);
        countAttempt(outcome);
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

  /**
   * Polls until stop(); a full batch goes straight into the next round. While the store is
   * unreachable the worker pauses (one log line, rounds every STORE_RETRY_MS) and resumes by
   * itself on the first round that reaches it (issue 18 §5). A send whose result could not be
   * recorded is sent again once its lease runs out: delivery is at least once.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        let busy = false;
        let wait = this.pollMs;
        try {
          const round = await this.runOnce();
          busy = round.outcomes.length >= this.batchSize || round.dispatched >= 100;
          this.storeReachable();
        } catch (error) {
          // No error may end the loop; the next round tries again.
          if (isStoreUnavailable(error)) {
            this.storeUnreachable(error);
            wait = Math.max(this.pollMs, STORE_RETRY_MS);
          } else {
            this.options.logger?.error({ err: error }, 'webhook worker round failed');
          }
        }
        if (this.running && !busy) await this.pause(wait);
      }
    })();
  }

  /** True while the worker is paused because the store is unreachable. */
  get paused(): boolean {
    return this.storeDownSince !== undefined;
  }

  private storeUnreachable(error: unknown): void {
    if (this.storeDownSince !== undefined) return;
    this.storeDownSince = Date.now();
    this.options.logger?.warn({ err: error }, 'store unreachable; webhook worker paused');
  }

  private storeReachable(): void {
    if (this.storeDownSince === undefined) return;
    this.options.logger?.info(
      { pausedMs: Date.now() - this.storeDownSince },
      'store reachable again; webhook worker resumed',
    );
    this.storeDownSince = undefined;
  }

  /** Stops polling and resolves once the round in progress (its sends included) has finished. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    // Others may take the partitions at once; a crash skips this and the leases run out instead.
    await this.leases.release().catch(() => {});
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }
}
