import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { type SecretBox, secretBoxOf } from '../platform/secrets.js';
import type { PaymentCredentials, PaymentSettings } from './payment-settings.rules.js';
import type { PaymentProvider } from './providers/payment-provider.js';
import { stripeProvider } from './providers/stripe-provider.js';

export type PaymentConfig = Pick<Config, 'secretKey' | 'databaseUrl' | 'dataDir' | 'stripeApiBase'>;

/** The sealing context of a workspace's payment credentials: they open in no other workspace's row. */
export const paymentCredentialsContext = (workspaceId: string) => `payment-credentials:${workspaceId}`;

export function openPaymentCredentials(
  box: SecretBox,
  workspaceId: string,
  sealed: string | null,
): PaymentCredentials | undefined {
  if (!sealed) return undefined;
  return JSON.parse(box.open(sealed, paymentCredentialsContext(workspaceId))) as PaymentCredentials;
}

export function sealPaymentCredentials(
  box: SecretBox,
  workspaceId: string,
  credentials: PaymentCredentials,
): string {
  return box.seal(JSON.stringify(credentials), paymentCredentialsContext(workspaceId));
}

export class NoPaymentProvider extends AppError {
  constructor() {
    super(
      409,
      'payment_provider_missing',
      'This workspace has no payment provider connected (Settings → Payments).',
    );
  }
}

/** The provider for these credentials (the live check before they are saved, tests). */
export function providerFor(
  config: PaymentConfig,
  credentials: PaymentCredentials,
  timeoutMs?: number,
): PaymentProvider {
  return stripeProvider({
    secretKey: credentials.secretKey,
    webhookSecret: credentials.webhookSecret,
    apiBase: config.stripeApiBase,
    timeoutMs,
  });
}

/**
 * Where the provider's hosted checkout lives, for the booking page's form-action: Stripe
 * Checkout, or the stand-in `STRIPE_API_BASE` names (the tests' fake serves its hosted page there).
 */
export function checkoutOrigins(config: PaymentConfig): string[] {
  return [config.stripeApiBase ? new URL(config.stripeApiBase).origin : 'https://checkout.stripe.com'];
}

/**
 * A workspace's provider from its settings and sealed credentials; undefined without one. Throws
 * SecretKeyMissing or SecretUnreadable when the credentials cannot be opened.
 */
export function workspaceProvider(
  config: PaymentConfig,
  workspaceId: string,
  settings: PaymentSettings,
  sealed: string | null,
): PaymentProvider | undefined {
  if (settings.provider === null) return undefined;
  const credentials = openPaymentCredentials(secretBoxOf(config), workspaceId, sealed);
  return credentials ? providerFor(config, credentials) : undefined;
}
