import type { TextProviderName } from '../../platform/db/schema.js';

/** One text to send, as the worker hands it to a provider. */
export interface OutgoingText {
  /** Our message id: the gateway's idempotency key (webhook-id), Twilio's status callback names it. */
  id: string;
  /** E.164. */
  to: string;
  body: string;
  channel: 'sms' | 'whatsapp';
  /** Where the provider reports the message's status (its signed callback endpoint). */
  statusCallback: string;
}

/** The provider took the message: its reference, its status now and, if it says, the price. */
export interface Accepted {
  ok: true;
  ref: string;
  status: 'queued' | 'sent' | 'delivered' | 'failed' | 'undelivered';
  /** Millionths of `priceUnit`, positive. */
  priceMicros?: number;
  priceUnit?: string;
  response: string;
}

/** It did not: `permanent` when trying again cannot help (a refused number, bad credentials). */
export interface Refused {
  ok: false;
  permanent: boolean;
  response: string;
}

export type SendOutcome = Accepted | Refused;

/**
 * A text message provider. `send` never throws: every outcome is a SendOutcome. `recover` is
 * asked before sending a message whose earlier attempt may have reached the provider without our
 * record of it (the worker died between the call and the record): it answers the provider's record
 * of that message, 'absent' when the provider can tell it has none, or 'unknown' when it cannot
 * tell (then the message is sent again: at least once is all such a provider allows).
 */
export interface TextMessageProvider {
  readonly name: TextProviderName;
  send(message: OutgoingText): Promise<SendOutcome>;
  recover(message: OutgoingText, since: number): Promise<Accepted | 'absent' | 'unknown'>;
  /** The price of a sent message once the provider knows it (Twilio fills it in after delivery). */
  price?(ref: string): Promise<{ priceMicros: number; priceUnit: string } | undefined>;
}

/** A decimal price as providers write it ("-0.00750") → millionths, positive. */
export function priceMicrosOf(price: unknown): number | undefined {
  if (price === null || price === undefined || price === '') return undefined;
  const value = Math.abs(Number(price));
  return Number.isFinite(value) ? Math.round(value * 1_000_000) : undefined;
}

/** The default: no provider. Nothing leaves; the message log keeps each message as it would go out. */
export const noProvider: TextMessageProvider = {
  name: 'none',
  send: async () => ({ ok: false, permanent: true, response: 'no provider' }),
  recover: async () => 'absent',
};
