import { AppError } from '../../errors.js';
import type { PaymentProviderName } from '../../platform/db/schema.js';

/**
 * A payment provider: the only code that talks to one. Card data never passes through Kairos:
 * the customer pays (or leaves a card) on the provider's hosted page (`createCheckout`), and the
 * provider tells us what happened by a signed webhook (`verifyEvent`) or when asked
 * (`retrieveCheckout`, used by the return from the hosted page and by reconciliation). Every call
 * that moves money carries our idempotency key (the id of the owed operation, see
 * migrations/0028_payments.sql), so retrying after a crash or a timeout never charges or refunds
 * twice: the provider answers a repeated key with its first answer.
 *
 * Calls throw `ProviderUnavailable` when trying again may help (5xx, timeouts, connection
 * errors) and `ProviderRefused` when it cannot (a declined card, a refused request, bad keys).
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** The live key check of Settings → Payments: the account the keys belong to. */
  checkAccount(): Promise<{ id: string; name: string }>;
  createCheckout(request: CheckoutRequest): Promise<CheckoutState>;
  retrieveCheckout(id: string): Promise<CheckoutState>;
  /** Makes an open checkout unpayable (the hold it belongs to was released). */
  expireCheckout(id: string): Promise<CheckoutState>;
  /** Charges a card kept on file, the customer absent (a fee). */
  chargeCard(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /** The event of a webhook, its signature checked; throws `PaymentSignatureInvalid`. */
  verifyEvent(rawBody: string, signature: string | undefined): ProviderEvent;
}

/** What names a provider object as ours: written into its metadata, read back from events. */
export interface PaymentMetadata {
  workspace_id: string;
  booking_id: string;
  /** The owed operation (payment_operations.id) the call belongs to. */
  operation_id: string;
}

export interface CheckoutRequest {
  mode: 'payment' | 'setup';
  /** Minor units; 0 in setup mode. */
  amount: number;
  /** ISO 4217, upper case (the workspace currency). */
  currency: string;
  /** The line the customer sees on the hosted page. */
  description: string;
  customerEmail?: string | undefined;
  /** Where the hosted page sends the customer back; `{CHECKOUT_SESSION_ID}` is filled in. */
  successUrl: string;
  cancelUrl: string;
  metadata: PaymentMetadata;
  idempotencyKey: string;
}

export interface CheckoutState {
  id: string;
  /** The hosted page, while the checkout is open. */
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  /** paid: the money was taken; no_payment_required: a setup checkout (card on file). */
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  mode: 'payment' | 'setup';
  amount: number;
  currency: string;
  /** The charge (PaymentIntent id) of a paid payment checkout. */
  paymentRef: string | null;
  /** The card kept for later fees, once the checkout completed with one. */
  card: { customer: string; paymentMethod: string } | null;
  metadata: Partial<PaymentMetadata>;
}

export interface ChargeRequest {
  customer: string;
  paymentMethod: string;
  amount: number;
  currency: string;
  description: string;
  metadata: PaymentMetadata;
  idempotencyKey: string;
}

export interface ChargeResult {
  ref: string;
  status: 'succeeded' | 'processing' | 'failed';
  amount: number;
}

export interface RefundRequest {
  /** The charge to refund (PaymentIntent id). */
  paymentRef: string;
  amount: number;
  metadata: PaymentMetadata;
  idempotencyKey: string;
}

export interface RefundResult {
  ref: string;
  status: 'pending' | 'succeeded' | 'failed';
  amount: number;
}

/** A provider event, reduced to what Kairos acts on. */
export type ProviderEvent =
  | { id: string; type: 'checkout_completed'; checkout: CheckoutState }
  | { id: string; type: 'checkout_expired'; checkout: CheckoutState }
  | {
      id: string;
      type: 'payment_succeeded' | 'payment_failed';
      ref: string;
      amount: number;
      failure?: string | undefined;
      metadata: Partial<PaymentMetadata>;
    }
  | { id: string; type: 'refund_updated'; refund: RefundResult; metadata: Partial<PaymentMetadata> }
  | { id: string; type: 'ignored'; providerType: string };

/** Trying again may help: the provider answered 5xx or 429, timed out, or could not be reached. */
export class ProviderUnavailable extends AppError {
  constructor(detail: string) {
    super(
      503,
      'payment_provider_unavailable',
      `The payment provider cannot be reached now (${detail}). Try again.`,
    );
  }
}

/** The provider refused: a declined card, bad keys, a request it will never take. */
export class ProviderRefused extends AppError {
  constructor(
    readonly providerCode: string,
    detail: string,
  ) {
    super(422, 'payment_refused', `The payment provider refused: ${detail}`);
  }
}

export class PaymentSignatureInvalid extends AppError {
  constructor() {
    super(400, 'payment_signature_invalid', 'The webhook signature does not verify.');
  }
}
