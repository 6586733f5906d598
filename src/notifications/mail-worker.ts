import { performance } from 'node:perf_hooks';
import type { Config } from '../config.js';
import type { HandlerRegistry } from '../outbox/handlers.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { PartitionLeases } from '../outbox/partition-leases.service.js';
import type { WorkerLogger } from '../outbox/queue-worker.js';
import { retryDelayMs } from '../outbox/retry-schedule.js';
import { type Db, isStoreUnavailable } from '../platform/db/client.js';
import type { Clock } from '../platform/http/types.js';
import { domainOf, type MailSnapshot, messageIdOf } from './mail-message.js';
import { countMail, type MailOutcome } from './mail-metrics.js';
import {
  type AttemptRecord,
  claimDueMessages,
  type MailRow,
  recordAttempts,
} from './mail-queue.repository.js';
import { renderMail } from './mail-render.js';
import { type MailSender, parseMailFrom, SMTP_TIMEOUTS, smtpSender } from './smtp-sender.js';

const STORE_RETRY_MS = 1_000;
/** Event loop utilization above which the process counts as saturated by other work. */
const SATURATED = 0.85;
/** While saturated: this many messages per round, a round per pause. */
const SATURATED_BATCH = 4;
const SATURATED_PAUSE_MS = 1_000;
/** Between full batches: long enough to see whether other work keeps the loop busy. */
const BUSY_PAUSE_MS = 50;

/** What the log says of a message that was not sent because no SMTP_URL is set. */
export const NOT_SENT_NO_SMTP = 'not sent: SMTP_URL is not set (kept in the mail log)';

export interface MailWorkerOptions {
  db: Db;
  /** All scheduling reads this clock (reminders, retries, leases), so tests move time. */
  clock: Clock;
  /** The outbox handlers each round dispatches to before it claims (src/workers.ts). */
  handlers: HandlerRegistry;
  /** The SMTP transport; none (no SMTP_URL): each due message is rendered and kept in the log only. */
  sender: MailSender | undefined;
  /** config.mailFrom. */
  mailFrom: string;
  /** PUBLIC_URL (else the server's address), for the manage links and the calendar UID. */
  publicBase: string;
  pollMs?: number;
  /** Messages claimed (and sent in parallel) per round. */
  batchSize?: number;
  /** How long a claim lasts: past it, a send that never finished (its worker died) is made again. */
  claimMs?: number;
  random?: () => number;
  logger?: WorkerLogger;
  /** The partition leases to work on: the webhook worker's of this process, or own ones. */
  leases?: PartitionLeases;
  workerId?: string;
  leaseMs?: number;
}

/**
 * The mail worker (issue 15 point 3). Each round claims due messages of its outbox partitions
 * (short statement per workspace; the same leases as the webhook worker), renders each from its
 * snapshot and sends it outside any transaction, then records the answer. An unclear end (the
 * connection dropped after DATA, the worker died) makes the message go again with the same
 * Message-ID, so the receiving side keeps one; 4xx and connection failures are retried with
 * backoff (src/outbox/retry-schedule.ts), 5xx is final.
 */
export class MailWorker {
  private readonly pollMs: number;
  private readonly batchSize: number;
  private readonly claimMs: number;
  private readonly random: () => number;
  private readonly from: { name: string; address: string };
  private readonly domain: string;
  readonly leases: PartitionLeases;
  private readonly ownsLeases: boolean;
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private storeDownSince: number | undefined;

  constructor(private readonly options: MailWorkerOptions) {
    this.pollMs = options.pollMs ?? 300;
    this.batchSize = options.batchSize ?? 20;
    // Every SMTP step has its limit; the claim outlives all of them together.
    this.claimMs =
      options.claimMs ??
      SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + 3 * SMTP_TIMEOUTS.socketTimeout;
    this.random = options.random ?? Math.random;
    const from = parseMailFrom(options.mailFrom);
    if (!from) throw new Error(`MAIL_FROM is not an address: "${options.mailFrom}"`);
    this.from = from;
    this.domain = domainOf(from.address);
    this.ownsLeases = options.leases === undefined;
    this.leases =
      options.leases ?? new PartitionLeases(options.db, options.clock, options.workerId, options.leaseMs);
  }

  /** One round: claim, render, send, record. Resolves when every message of the round is recorded. */
  async runOnce(limit: number = this.batchSize): Promise<MailOutcome[]> {
    const { db, clock } = this.options;
    const partitions = await this.leases.current();
    // Changes' emails are queued when their outbox events are dispatched: do it here too, so an
    // email never waits for the webhook worker's poll (an event already dispatched is skipped).
    await dispatchOutbox(db, this.options.handlers, clock.now(), 100, partitions, this.options.logger);
    const now = clock.now();
    const claimed = await claimDueMessages(db, now, now + this.claimMs, limit, partitions);
    if (claimed.length === 0) return [];
    // Sent in parallel (the transport pools its connections), recorded per workspace at once.
    const attempts = await Promise.all(
      claimed.map(async (message) => ({
        claimed: message,
        record: await this.attempt(message, this.options.sender, clock.now()),
      })),
    );
    const byWorkspace = new Map<string, typeof attempts>();
    for (const attempt of attempts) {
      const group = byWorkspace.get(attempt.claimed.workspace_id) ?? [];
      group.push(attempt);
      byWorkspace.set(attempt.claimed.workspace_id, group);
    }
    const recorded = new Set<string>();
    for (const [workspaceId, group] of byWorkspace) {
      for (const id of await recordAttempts(db, workspaceId, group, clock.now())) recorded.add(id);
    }
    return attempts.map(({ claimed: message, record }) => {
      const outcome: MailOutcome = !recorded.has(message.id)
        ? 'lease_lost'
        : record.state === 'pending'
          ? 'retrying'
          : record.state;
      countMail(outcome);
      if (outcome === 'retrying' || outcome === 'failed') {
        this.options.logger?.warn(
          { mail: message.id, kind: message.kind, attempt: message.attempt_count, outcome },
          `email not sent: ${record.response}`,
        );
      }
      return outcome;
    });
  }

  private async attempt(
    message: MailRow,
    sender: MailSender | undefined,
    now: number,
  ): Promise<AttemptRecord> {
    // A reminder is worth sending late, but never once its booking has started.
    if (message.kind === 'reminder' && message.starts_at && now >= message.starts_at.getTime()) {
      return { state: 'expired', response: 'not sent: the booking had started' };
    }
    const snapshot = message.snapshot as unknown as MailSnapshot;
    let rendered: ReturnType<typeof renderMail>;
    try {
      rendered = renderMail(message.kind, message.revision, snapshot, {
        publicBase: this.options.publicBase,
        from: this.fromOf(snapshot),
      });
    } catch (error) {
      return { state: 'failed', response: `not sent: ${(error as Error).message}` };
    }
    const content = { subject: rendered.subject, bodyText: rendered.text };
    if (!sender) return { state: 'logged', response: NOT_SENT_NO_SMTP, ...content };
    const result = await sender.send({
      from: this.fromOf(snapshot),
      to: message.recipient,
      ...(snapshot.replyTo ? { replyTo: snapshot.replyTo } : {}),
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      messageId: messageIdOf(message.message_key, this.domain),
      ...(rendered.calendar ? { calendar: rendered.calendar } : {}),
    });
    if (result.ok)
      return { state: 'sent', response: result.response, sentAt: this.options.clock.now(), ...content };
    const delay = result.permanent ? null : retryDelayMs(message.attempt_count, this.random);
    if (delay === null) return { state: 'failed', response: result.response, ...content };
    return {
      state: 'pending',
      nextAttemptAt: this.options.clock.now() + delay,
      response: result.response,
      ...content,
    };
  }

  private fromOf(snapshot: MailSnapshot): { name: string; address: string } {
    return {
      name: snapshot.senderName || snapshot.workspaceName || this.from.name,
      address: this.from.address,
    };
  }

  /**
   * Polls until stop(); a full batch goes straight into the next round. While this process's
   * event loop is saturated (the API of the embedded store under load shares it), the worker
   * yields: a few messages a second, so sending never takes the requests' CPU; the backlog goes
   * out at full speed once the load eases (docs/notifications.md "Throughput").
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = (async () => {
      // Measured over the pauses only: the worker's own sending is not what it yields to.
      let saturated = false;
      while (this.running) {
        let busy = false;
        let wait = this.pollMs;
        const limit = saturated ? SATURATED_BATCH : this.batchSize;
        try {
          const outcomes = await this.runOnce(limit);
          busy = outcomes.length >= limit && !saturated;
          if (saturated) wait = Math.max(this.pollMs, SATURATED_PAUSE_MS);
          this.storeReachable();
        } catch (error) {
          if (isStoreUnavailable(error)) {
            this.storeUnreachable(error);
            wait = Math.max(this.pollMs, STORE_RETRY_MS);
          } else {
            this.options.logger?.error({ err: error }, 'mail worker round failed');
          }
        }
        if (!this.running) break;
        const before = performance.eventLoopUtilization();
        await this.pause(busy ? BUSY_PAUSE_MS : wait);
        saturated = performance.eventLoopUtilization(before).utilization > SATURATED;
      }
    })();
  }

  private storeUnreachable(error: unknown): void {
    if (this.storeDownSince !== undefined) return;
    this.storeDownSince = Date.now();
    this.options.logger?.warn({ err: error }, 'store unreachable; mail worker paused');
  }

  private storeReachable(): void {
    if (this.storeDownSince === undefined) return;
    this.options.logger?.info({ pausedMs: Date.now() - this.storeDownSince }, 'mail worker resumed');
    this.storeDownSince = undefined;
  }

  /** Stops polling and resolves once the round in progress has recorded its sends. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    this.options.sender?.close();
    if (this.ownsLeases) await this.leases.release().catch(() => {});
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    });
  }
}

/** The process's mail worker from its config: SMTP_URL's transport, or the log only without it. */
export function mailWorkerFromConfig(
  config: Config,
  deps: {
    db: Db;
    clock: Clock;
    handlers: HandlerRegistry;
    logger?: WorkerLogger;
    leases?: PartitionLeases;
    publicBase: string;
  },
): MailWorker {
  return new MailWorker({
    ...deps,
    sender: config.smtpUrl ? smtpSender(config.smtpUrl) : undefined,
    mailFrom: config.mailFrom,
  });
}
