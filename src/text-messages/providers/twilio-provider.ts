import twilio from 'twilio';
import type { Accepted, OutgoingText, SendOutcome, TextMessageProvider } from './text-provider.js';
import { priceMicrosOf } from './text-provider.js';

export const TWILIO_API = 'https://api.twilio.com';

/**
 * twilio-node's HTTP client with its API origin replaced. The SDK builds every URL from
 * https://api.twilio.com (and its regional edges) with no option to change it, yet the tests must
 * reach a fake Twilio on loopback, never the real one: `request` is the one method every call goes
 * through, so this subclass rewrites the URI's origin there and leaves the rest (auth header, form
 * encoding, timeouts) to the SDK. In production `apiBase` is unset and nothing is rewritten.
 */
class RebasedRequestClient extends twilio.RequestClient {
  constructor(private readonly apiBase: string) {
    super({ timeout: 15_000 });
  }
  override request<TData>(opts: Parameters<twilio.RequestClient['request']>[0]) {
    const uri = opts.uri.startsWith(TWILIO_API)
      ? `${this.apiBase}${opts.uri.slice(TWILIO_API.length)}`
      : opts.uri;
    return super.request<TData>({ ...opts, uri } as typeof opts & { data?: TData });
  }
}

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** A number, a messaging service SID (MG…) or an alphanumeric sender ID. */
  sender: string;
  /** Tests: the fake Twilio's origin (http://127.0.0.1:port). */
  apiBase?: string | undefined;
}

interface TwilioMessage {
  sid: string;
  status: string;
  body: string;
  to: string;
  price: string | null;
  priceUnit: string | null;
  dateCreated: Date | null;
}

const address = (channel: OutgoingText['channel'], number: string) =>
  channel === 'whatsapp' && !number.startsWith('whatsapp:') ? `whatsapp:${number}` : number;

const STATUS: Record<string, Accepted['status']> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  failed: 'failed',
  undelivered: 'undelivered',
  canceled: 'failed',
};

function accepted(message: TwilioMessage): Accepted {
  const priceMicros = priceMicrosOf(message.price);
  return {
    ok: true,
    ref: message.sid,
    status: STATUS[message.status] ?? 'queued',
    ...(priceMicros !== undefined ? { priceMicros } : {}),
    ...(message.priceUnit ? { priceUnit: message.priceUnit } : {}),
    response: `twilio: ${message.status} ${message.sid}`,
  };
}

/**
 * Twilio's Programmable Messaging (SMS and WhatsApp) through the official SDK. Twilio's Messages
 * API takes no idempotency key, so a message whose first attempt may have reached Twilio is looked
 * up (`recover`: the messages to the number since the attempt, matched by body) before it is sent
 * again.
 */
export function twilioProvider(options: TwilioOptions): TextMessageProvider {
  const client = twilio(options.accountSid, options.authToken, {
    ...(options.apiBase ? { httpClient: new RebasedRequestClient(options.apiBase) } : {}),
  });
  const from = (channel: OutgoingText['channel']) =>
    /^MG[0-9a-f]{32}$/i.test(options.sender)
      ? { messagingServiceSid: options.sender }
      : { from: address(channel, options.sender) };
  return {
    name: 'twilio',
    async send(message): Promise<SendOutcome> {
      try {
        const created = await client.messages.create({
          to: address(message.channel, message.to),
          ...from(message.channel),
          body: message.body,
          statusCallback: message.statusCallback,
        });
        return accepted(created);
      } catch (error) {
        const status = (error as { status?: number }).status;
        const code = (error as { code?: number }).code;
        const text = `twilio: ${status ?? 'no answer'}${code ? ` (${code})` : ''} ${(error as Error).message}`;
        // 4xx (a bad number, an unverified sender, bad credentials) will not change by itself; 429,
        // 5xx and no answer might.
        const permanent = status !== undefined && status >= 400 && status < 500 && status !== 429;
        return { ok: false, permanent, response: text.slice(0, 500) };
      }
    },
    async recover(message, since) {
      try {
        const found = await client.messages.list({
          to: address(message.channel, message.to),
          dateSentAfter: new Date(since - 86_400_000),
          limit: 50,
        });
        const match = found.find(
          (m) => m.body === message.body && (m.dateCreated?.getTime() ?? since) >= since - 60_000,
        );
        return match ? accepted(match) : 'absent';
      } catch {
        return 'unknown';
      }
    },
    async price(ref) {
      try {
        const message = await client.messages(ref).fetch();
        const priceMicros = priceMicrosOf(message.price);
        return priceMicros === undefined ? undefined : { priceMicros, priceUnit: message.priceUnit ?? 'USD' };
      } catch {
        return undefined;
      }
    },
  };
}

/** Twilio's webhook check: HMAC-SHA1 of the URL and the sorted form parameters (X-Twilio-Signature). */
export function twilioSignatureValid(
  authToken: string,
  signature: string,
  url: string,
  params: Record<string, string>,
): boolean {
  return twilio.validateRequest(authToken, signature, url, params);
}
