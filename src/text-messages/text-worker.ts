import type { Config } from '../config.js';
import { type LeasedQueue, QueueWorker, type QueueWorkerOptions } from '../outbox/queue-worker.js';
import { retryDelayMs } from '../outbox/retry-schedule.js';
import type { Clock } from '../platform/http/types.js';
import type { Accepted, OutgoingText, TextMessageProvider } from './providers/text-provider.js';
import { countSegments } from './segments.rules.js';
import {
  claimDueTexts,
  findTextConfig,
  optedOutOf,
  recordTextAttempts,
  type TextAttempt,
  type TextRow,
} from './text-messages.repository.js';
import { type ProviderEnvironment, providerOf, statusCallbackUrl } from './text-providers.service.js';
import { renderText, type TextSnapshot } from './text-render.js';
import { textSettingsOf } from './text-settings.rules.js';

export type TextOutcome = TextAttempt['state'] | 'retrying' | 'lease_lost';

export const NOT_SENT_NO_PROVIDER = 'not sent: no text provider is set (kept in the message log)';

export interface TextWorkerOptions extends QueueWorkerOptions {
  /** PUBLIC_URL (else the server's address): manage links and the providers' callback URLs. */
  publicBase: string;
  config: ProviderEnvironment['config'];
  claimMs?: number;
  random?: () => number;
}

/**
 * The text worker: the outbox's leased-queue worker over `text_messages`, on the process's
 * partition leases. Each round claims due texts, renders each from its snapshot, checks the
 * number's opt-out, sends through the workspace's provider outside any transaction and records
 * the answers.
 *
 * Exactly once, where the provider allows it. The claim is committed before the provider is
 * called; a worker that dies between the provider's answer and our record leaves the text
 * `sending` until its lease runs out, and the next claim marks it `in_doubt`. Before sending an
 * in-doubt text the worker asks the provider (`recover`): Twilio's Messages API has no
 * idempotency key, so the worker lists the messages to that number since the text was queued and
 * takes a match of the body as the message sent (recording its SID; its status callbacks, which
 * name our id, would also have filled it in). The gateway gets the same `webhook-id` on every
 * attempt, its idempotency key under Standard Webhooks, so a resend is the same message to it.
 * A provider that can tell neither is sent to again: at least once is then the best there is.
 */
export class TextWorker extends QueueWorker<TextRow, TextOutcome> {
  constructor(options: TextWorkerOptions) {
    super(textQueue(options), { ...options, yieldWhenSaturated: true });
  }
}

const STATE_OF: Record<Accepted['status'], TextAttempt['state']> = {
  queued: 'sent',
  sent: 'sent',
  delivered: 'delivered',
  failed: 'failed',
  undelivered: 'undelivered',
};

function textQueue(options: TextWorkerOptions): LeasedQueue<TextRow, TextOutcome> {
  const { db, clock, logger } = options;
  const random = options.random ?? Math.random;
  const env: ProviderEnvironment = {
    config: options.config,
    now: () => clock.now(),
  };

  function acceptedRecord(answer: Accepted, content: Partial<TextAttempt>): TextAttempt {
    return {
      state: STATE_OF[answer.status],
      response: answer.response,
      providerRef: answer.ref,
      ...(answer.priceMicros !== undefined ? { priceMicros: answer.priceMicros } : {}),
      ...(answer.priceUnit ? { priceUnit: answer.priceUnit } : {}),
      sentAt: clock.now(),
      ...content,
    };
  }

  async function attempt(
    message: TextRow,
    provider: TextMessageProvider | Error,
    enabled: boolean,
    optedOut: boolean,
  ): Promise<TextAttempt> {
    const now = clock.now();
    if (message.kind === 'reminder' && message.starts_at && now >= message.starts_at.getTime())
      return { state: 'expired', response: 'not sent: the booking had started' };
    if (message.kind !== 'test' && !enabled)
      return { state: 'expired', response: 'not sent: texts were switched off' };
    if (optedOut) return { state: 'opted_out', response: 'not sent: the number opted out (STOP)' };
    const body = renderText(message.kind, message.snapshot as unknown as TextSnapshot, options.publicBase);
    const count = countSegments(body);
    const content = { body, segments: count.segments, encoding: count.encoding };
    if (provider instanceof Error)
      return { state: 'failed', response: `not sent: ${provider.message}`, ...content };
    if (provider.name === 'none') return { state: 'logged', response: NOT_SENT_NO_PROVIDER, ...content };
    const outgoing: OutgoingText = {
      id: message.id,
      to: message.recipient,
      body,
      channel: message.channel,
      statusCallback: statusCallbackUrl(options.publicBase, message.workspace_id, provider.name, message.id),
    };
    if (message.in_doubt) {
      const found = await provider.recover(outgoing, message.created_at.getTime());
      if (found !== 'absent' && found !== 'unknown')
        return acceptedRecord(found, {
          ...content,
          response: `${found.response} (found after an interrupted attempt)`,
        });
    }
    const answer = await provider.send(outgoing);
    if (answer.ok) return acceptedRecord(answer, content);
    const delay = answer.permanent ? null : retryDelayMs(message.attempt_count, random);
    if (delay === null) return { state: 'failed', response: answer.response, ...content };
    return { state: 'pending', nextAttemptAt: clock.now() + delay, response: answer.response, ...content };
  }

  return {
    name: 'text',
    claimMs: options.claimMs ?? 60_000,
    claim: (now, leaseUntil, limit, partitions) => claimDueTexts(db, now, leaseUntil, limit, partitions),
    async attempt(claimed) {
      const byWorkspace = new Map<string, TextRow[]>();
      for (const message of claimed) {
        const group = byWorkspace.get(message.workspace_id) ?? [];
        group.push(message);
        byWorkspace.set(message.workspace_id, group);
      }
      const outcomes = new Map<string, TextOutcome>();
      await Promise.all(
        [...byWorkspace].map(async ([workspaceId, group]) => {
          const config = await findTextConfig(db, workspaceId);
          const settings = textSettingsOf(config?.text_settings);
          let provider: TextMessageProvider | Error;
          try {
            provider = providerOf(env, workspaceId, settings, config?.text_credentials ?? null);
          } catch (error) {
            provider = error as Error;
          }
          const optedOut = await optedOutOf(db, workspaceId, [...new Set(group.map((m) => m.recipient))]);
          const attempts = await Promise.all(
            group.map(async (message) => ({
              claimed: message,
              record: await attempt(message, provider, settings.enabled, optedOut.has(message.recipient)),
            })),
          );
          const recorded = await recordTextAttempts(db, workspaceId, attempts, clock.now());
          for (const { claimed: message, record } of attempts) {
            const outcome: TextOutcome = !recorded.has(message.id)
              ? 'lease_lost'
              : record.state === 'pending'
                ? 'retrying'
                : record.state;
            outcomes.set(message.id, outcome);
            if (outcome === 'retrying' || outcome === 'failed')
              logger?.warn(
                { text: message.id, kind: message.kind, attempt: message.attempt_count, outcome },
                `text not sent: ${record.response}`,
              );
          }
        }),
      );
      return claimed.map((message) => outcomes.get(message.id) ?? 'lease_lost');
    },
  };
}

/** The process's text worker. */
export function textWorkerFromConfig(
  config: Config,
  deps: Omit<TextWorkerOptions, 'config'> & { clock: Clock },
): TextWorker {
  return new TextWorker({ ...deps, config });
}
