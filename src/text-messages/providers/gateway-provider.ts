import { sendWebhook } from '../../webhooks/http-sender.js';
import { signedHeaders } from '../../webhooks/signing.js';
import type { Accepted, SendOutcome, TextMessageProvider } from './text-provider.js';
import { priceMicrosOf } from './text-provider.js';

export interface GatewayOptions {
  url: string;
  /** whsec_…: signs our POSTs, and the gateway's callbacks to us. */
  secret: string;
  sender: string;
  allowPrivate: boolean;
  now: () => number;
}

/**
 * The generic HTTP gateway: one POST per message to the business's URL, signed per Standard
 * Webhooks (the webhooks' signing, src/webhooks/signing.ts) and sent through the webhooks' SSRF
 * guard. The `webhook-id` header is our message id, the same on every attempt: Standard Webhooks
 * makes it the receiver's idempotency key, so a gateway that follows the spec sends a retried
 * message once. That is this provider's exactly-once: `recover` has nothing to ask, and answers
 * 'unknown' so the worker simply sends again with the same id.
 *
 * The gateway answers 2xx, optionally with JSON `{ "id": "...", "status": "queued|sent|delivered",
 * "price": "0.05", "price_unit": "EUR" }`; 4xx other than 408/429 is final, anything else retried.
 */
export function gatewayProvider(options: GatewayOptions): TextMessageProvider {
  return {
    name: 'gateway',
    async send(message): Promise<SendOutcome> {
      const body = JSON.stringify({
        type: 'text-message.send',
        id: message.id,
        to: message.to,
        from: options.sender || null,
        channel: message.channel,
        body: message.body,
        status_url: message.statusCallback,
      });
      const result = await sendWebhook({
        url: options.url,
        headers: {
          'content-type': 'application/json',
          ...signedHeaders([options.secret], message.id, options.now(), body),
        },
        body,
        timeoutMs: 10_000,
        allowPrivate: options.allowPrivate,
      });
      if (result.ok) {
        let answer: Record<string, unknown> = {};
        try {
          answer = JSON.parse(result.responseExcerpt ?? '{}') as Record<string, unknown>;
        } catch {
          // A gateway that answers 2xx without JSON took the message; our id is its reference.
        }
        const status = ['queued', 'sent', 'delivered'].includes(answer.status as string)
          ? (answer.status as Accepted['status'])
          : 'queued';
        const priceMicros = priceMicrosOf(answer.price);
        return {
          ok: true,
          ref: typeof answer.id === 'string' && answer.id !== '' ? answer.id : message.id,
          status,
          ...(priceMicros !== undefined ? { priceMicros } : {}),
          ...(typeof answer.price_unit === 'string' ? { priceUnit: answer.price_unit } : {}),
          response: `gateway: ${result.statusCode}`,
        };
      }
      const code = result.statusCode;
      const permanent = code !== null && code >= 400 && code < 500 && code !== 408 && code !== 429;
      return {
        ok: false,
        permanent,
        response: `gateway: ${code ?? 'no answer'} ${result.error ?? result.responseExcerpt ?? ''}`.slice(
          0,
          500,
        ),
      };
    },
    recover: async () => 'unknown',
  };
}
