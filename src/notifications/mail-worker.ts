import type { Config } from '../config.js';
import { type LeasedQueue, QueueWorker, type QueueWorkerOptions } from '../outbox/queue-worker.js';
import { retryDelayMs } from '../outbox/retry-schedule.js';
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

/** What the log says of a message that was not sent because no SMTP_URL is set. */
export const NOT_SENT_NO_SMTP = 'not sent: SMTP_URL is not set (kept in the mail log)';

export interface MailWorkerOptions extends QueueWorkerOptions {
  /** The SMTP transport; none (no SMTP_URL): each due message is rendered and kept in the log only. */
  sender: MailSender | undefined;
  /** config.mailFrom. */
  mailFrom: string;
  /** PUBLIC_URL (else the server's address), for the manage links and the calendar UID. */
  publicBase: string;
  /** How long a claim lasts: past it, a send that never finished (its worker died) is made again. */
  claimMs?: number;
  random?: () => number;
}

/**
 * The mail worker: the outbox's leased-queue worker (src/outbox/queue-worker.ts)
 * over `mail_messages`, on the same partition leases as the webhook worker. Each round claims due
 * messages (short statement per workspace), renders each from its snapshot and sends it outside
 * any transaction, then records the answers. An unclear end (the connection dropped after DATA,
 * the worker died) makes the message go again with the same Message-ID, so the receiving side
 * keeps one; 4xx and connection failures are retried with backoff (src/outbox/retry-schedule.ts),
 * 5xx is final. It yields to the process's other work while its event loop is saturated.
 */
export class MailWorker extends QueueWorker<MailRow, MailOutcome> {
  constructor(options: MailWorkerOptions) {
    super(mailQueue(options), { ...options, yieldWhenSaturated: true });
  }
}

function mailQueue(options: MailWorkerOptions): LeasedQueue<MailRow, MailOutcome> {
  const { db, clock, sender, logger } = options;
  const random = options.random ?? Math.random;
  const from = parseMailFrom(options.mailFrom);
  if (!from) throw new Error(`MAIL_FROM is not an address: "${options.mailFrom}"`);
  const domain = domainOf(from.address);
  const fromOf = (snapshot: MailSnapshot) => ({
    name: snapshot.senderName || snapshot.workspaceName || from.name,
    address: from.address,
  });

  async function attempt(message: MailRow, now: number): Promise<AttemptRecord> {
    // A reminder is worth sending late, but never once its booking has started.
    if (message.kind === 'reminder' && message.starts_at && now >= message.starts_at.getTime()) {
      return { state: 'expired', response: 'not sent: the booking had started' };
    }
    const snapshot = message.snapshot as unknown as MailSnapshot;
    let rendered: ReturnType<typeof renderMail>;
    try {
      rendered = renderMail(message.kind, message.revision, snapshot, {
        publicBase: options.publicBase,
        from: fromOf(snapshot),
      });
    } catch (error) {
      return { state: 'failed', response: `not sent: ${(error as Error).message}` };
    }
    const content = { subject: rendered.subject, bodyText: rendered.text };
    if (!sender) return { state: 'logged', response: NOT_SENT_NO_SMTP, ...content };
    const result = await sender.send({
      from: fromOf(snapshot),
      to: message.recipient,
      ...(snapshot.replyTo ? { replyTo: snapshot.replyTo } : {}),
      subject: rendered.subject,
      text: rendered.text,
      html: rendered.html,
      messageId: messageIdOf(message.message_key, domain),
      ...(rendered.calendar ? { calendar: rendered.calendar } : {}),
    });
    if (result.ok) return { state: 'sent', response: result.response, sentAt: clock.now(), ...content };
    const delay = result.permanent ? null : retryDelayMs(message.attempt_count, random);
    if (delay === null) return { state: 'failed', response: result.response, ...content };
    return { state: 'pending', nextAttemptAt: clock.now() + delay, response: result.response, ...content };
  }

  return {
    name: 'mail',
    // Every SMTP step has its limit; the claim outlives all of them together.
    claimMs:
      options.claimMs ??
      SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + 3 * SMTP_TIMEOUTS.socketTimeout,
    claim: (now, leaseUntil, limit, partitions) => claimDueMessages(db, now, leaseUntil, limit, partitions),
    async attempt(claimed) {
      // Sent in parallel (the transport pools its connections), recorded per workspace at once.
      const attempts = await Promise.all(
        claimed.map(async (message) => ({ claimed: message, record: await attempt(message, clock.now()) })),
      );
      const byWorkspace = new Map<string, typeof attempts>();
      for (const entry of attempts) {
        const group = byWorkspace.get(entry.claimed.workspace_id) ?? [];
        group.push(entry);
        byWorkspace.set(entry.claimed.workspace_id, group);
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
          logger?.warn(
            { mail: message.id, kind: message.kind, attempt: message.attempt_count, outcome },
            `email not sent: ${record.response}`,
          );
        }
        return outcome;
      });
    },
    close: () => sender?.close(),
  };
}

/** The process's mail worker from its config: SMTP_URL's transport, or the log only without it. */
export function mailWorkerFromConfig(
  config: Config,
  deps: Omit<MailWorkerOptions, 'sender' | 'mailFrom'>,
): MailWorker {
  return new MailWorker({
    ...deps,
    sender: config.smtpUrl ? smtpSender(config.smtpUrl) : undefined,
    mailFrom: config.mailFrom,
  });
}
