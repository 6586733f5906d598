import Stripe from 'stripe';
import {
  type CheckoutState,
  type PaymentMetadata,
  type PaymentProvider,
  PaymentSignatureInvalid,
  type ProviderEvent,
  ProviderRefused,
  ProviderUnavailable,
  type RefundResult,
} from './payment-provider.js';

export interface StripeOptions {
  /** The workspace's secret key (sk_live_… / sk_test_… / rk_…). */
  secretKey: string;
  /** The signing secret of the webhook endpoint the workspace made for Kairos (whsec_…). */
  webhookSecret: string;
  /**
   * Tests: the fake Stripe's origin (http://127.0.0.1:port), from STRIPE_API_BASE. The official
   * package takes host, port and protocol as options, so nothing is rewritten.
   */
  apiBase?: string | undefined;
  /** Milliseconds before a call is given up (and counted as unavailable). */
  timeoutMs?: number | undefined;
}

/** Options of the official client for `apiBase` (none in production: api.stripe.com). */
export function stripeClientOptions(apiBase: string | undefined, timeoutMs = 20_000) {
  const base = apiBase ? new URL(apiBase) : undefined;
  return {
    // Retries are ours (the payment worker, with the same idempotency key): one attempt per call.
    maxNetworkRetries: 0,
    timeout: timeoutMs,
    telemetry: false,
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
          protocol: base.protocol.replace(':', '') as 'http' | 'https',
        }
      : {}),
  };
}

function metadataOf(value: Stripe.Metadata | null | undefined): Partial<PaymentMetadata> {
  const meta = value ?? {};
  return {
    ...(meta.workspace_id ? { workspace_id: meta.workspace_id } : {}),
    ...(meta.booking_id ? { booking_id: meta.booking_id } : {}),
    ...(meta.operation_id ? { operation_id: meta.operation_id } : {}),
  };
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

function checkoutOf(session: Stripe.Checkout.Session): CheckoutState {
  const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
  const setup = typeof session.setup_intent === 'object' ? session.setup_intent : null;
  const customer = idOf(session.customer) ?? idOf(intent?.customer) ?? idOf(setup?.customer);
  const paymentMethod = idOf(setup?.payment_method) ?? idOf(intent?.payment_method);
  return {
    id: session.id,
    url: session.url ?? null,
    status: session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
    paymentStatus:
      session.payment_status === 'paid'
        ? 'paid'
        : session.payment_status === 'no_payment_required'
          ? 'no_payment_required'
          : 'unpaid',
    mode: session.mode === 'setup' ? 'setup' : 'payment',
    amount: session.amount_total ?? 0,
    currency: (session.currency ?? '').toUpperCase(),
    paymentRef: session.payment_status === 'paid' ? idOf(session.payment_intent) : null,
    card: customer && paymentMethod ? { customer, paymentMethod } : null,
    metadata: metadataOf(session.metadata),
  };
}

/** A Stripe error → ours: unavailable when trying again may help, refused when it cannot. */
function translate(error: unknown): never {
  if (error instanceof Stripe.errors.StripeError) {
    const status = error.statusCode ?? 0;
    if (
      error instanceof Stripe.errors.StripeConnectionError ||
      error instanceof Stripe.errors.StripeAPIError ||
      error instanceof Stripe.errors.StripeRateLimitError ||
      status >= 500 ||
      status === 0
    )
      throw new ProviderUnavailable(`stripe ${status || error.type}: ${error.message}`);
    throw new ProviderRefused(error.code ?? error.type, error.message);
  }
  throw error;
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    return translate(error);
  }
}

const EXPAND = ['payment_intent', 'setup_intent'];

/**
 * Stripe through the official `stripe` package: Checkout Sessions (payment mode with the card kept
 * for later fees, or setup mode for a card on file without a charge), PaymentIntents off session
 * for fees, Refunds, the account for the key check, and webhooks verified with
 * `stripe.webhooks.constructEvent` (the Stripe-Signature header: HMAC-SHA256 of `t.payload`).
 */
export function stripeProvider(options: StripeOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, stripeClientOptions(options.apiBase, options.timeoutMs));
  return {
    name: 'stripe',

    async checkAccount() {
      const account = await call(() => stripe.accounts.retrieveCurrent());
      const name = account.settings?.dashboard?.display_name ?? account.business_profile?.name ?? account.id;
      return { id: account.id, name: name ?? account.id };
    },

    async createCheckout(request) {
      const common = {
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        client_reference_id: request.metadata.booking_id,
        metadata: { ...request.metadata },
        ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
      };
      const params: Stripe.Checkout.SessionCreateParams =
        request.mode === 'setup'
          ? {
              ...common,
              mode: 'setup',
              currency: request.currency.toLowerCase(),
              customer_creation: 'always',
              setup_intent_data: { metadata: { ...request.metadata } },
            }
          : {
              ...common,
              mode: 'payment',
              customer_creation: 'always',
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency: request.currency.toLowerCase(),
                    unit_amount: request.amount,
                    product_data: { name: request.description },
                  },
                },
              ],
              // The card is kept for a later late-cancel or no-show fee.
              payment_intent_data: { setup_future_usage: 'off_session', metadata: { ...request.metadata } },
            };
      const session = await call(() =>
        stripe.checkout.sessions.create(params, { idempotencyKey: request.idempotencyKey }),
      );
      return checkoutOf(session);
    },

    async retrieveCheckout(id) {
      return checkoutOf(await call(() => stripe.checkout.sessions.retrieve(id, { expand: EXPAND })));
    },

    async expireCheckout(id) {
      try {
        return checkoutOf(await stripe.checkout.sessions.expire(id, {}, { idempotencyKey: `expire-${id}` }));
      } catch (error) {
        // Already complete or expired: Stripe refuses; its state is the answer.
        if (error instanceof Stripe.errors.StripeInvalidRequestError)
          return checkoutOf(await call(() => stripe.checkout.sessions.retrieve(id, { expand: EXPAND })));
        return translate(error);
      }
    },

    async chargeCard(request) {
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: request.amount,
            currency: request.currency.toLowerCase(),
            customer: request.customer,
            payment_method: request.paymentMethod,
            off_session: true,
            confirm: true,
            description: request.description,
            metadata: { ...request.metadata },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return {
          ref: intent.id,
          status:
            intent.status === 'succeeded'
              ? 'succeeded'
              : intent.status === 'processing'
                ? 'processing'
                : 'failed',
          amount: intent.amount,
        };
      } catch (error) {
        // A declined card is an answer, not a fault: Stripe names the PaymentIntent it made.
        if (error instanceof Stripe.errors.StripeCardError && error.payment_intent)
          return { ref: error.payment_intent.id, status: 'failed', amount: request.amount };
        return translate(error);
      }
    },

    async refund(request) {
      const refund = await call(() =>
        stripe.refunds.create(
          { payment_intent: request.paymentRef, amount: request.amount, metadata: { ...request.metadata } },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      return refundOf(refund);
    },

    verifyEvent(rawBody, signature) {
      let event: Stripe.Event;
      try {
        if (!signature) throw new Error('no signature');
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch {
        throw new PaymentSignatureInvalid();
      }
      return eventOf(event);
    },
  };
}

function refundOf(refund: Stripe.Refund): RefundResult {
  const status =
    refund.status === 'succeeded' ? 'succeeded' : refund.status === 'pending' ? 'pending' : 'failed';
  return {
    ref: refund.id,
    status: refund.status === 'requires_action' ? 'pending' : status,
    amount: refund.amount,
  };
}

function eventOf(event: Stripe.Event): ProviderEvent {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return { id: event.id, type: 'checkout_completed', checkout: checkoutOf(event.data.object) };
    case 'checkout.session.expired':
      return { id: event.id, type: 'checkout_expired', checkout: checkoutOf(event.data.object) };
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const intent = event.data.object;
      return {
        id: event.id,
        type: event.type === 'payment_intent.succeeded' ? 'payment_succeeded' : 'payment_failed',
        ref: intent.id,
        amount: intent.amount,
        failure: intent.last_payment_error?.message,
        metadata: metadataOf(intent.metadata),
      };
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed': {
      const refund = event.data.object;
      return {
        id: event.id,
        type: 'refund_updated',
        refund: refundOf(refund),
        metadata: metadataOf(refund.metadata),
      };
    }
    default:
      return { id: event.id, type: 'ignored', providerType: event.type };
  }
}
