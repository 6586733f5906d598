import type { PaymentProviderName } from '../platform/db/schema.js';

/**
 * A workspace's payment settings (`workspaces.payment_settings`, jsonb, always read through
 * `paymentSettingsOf`). Never a secret: the provider's secret key and webhook signing secret are
 * sealed into `workspaces.payment_credentials` (src/platform/secrets.ts). Pure.
 */
export interface PaymentSettings {
  /** null: no provider (every workspace until it connects one): nothing is collected. */
  provider: PaymentProviderName | null;
  /** The provider's account the keys belong to, as the live check found it. */
  accountId: string;
  accountName: string;
  /** How long an unpaid booking holds its slot before it is released (`payment_hold_minutes`). */
  holdMinutes: number;
}

export interface PaymentCredentials {
  secretKey: string;
  webhookSecret: string;
}

export const DEFAULT_HOLD_MINUTES = 15;
export const MIN_HOLD_MINUTES = 5;
export const MAX_HOLD_MINUTES = 120;

export function paymentSettingsOf(stored: Record<string, unknown> | null | undefined): PaymentSettings {
  const raw = stored ?? {};
  const hold = raw.hold_minutes;
  return {
    provider: raw.provider === 'stripe' ? 'stripe' : null,
    accountId: typeof raw.account_id === 'string' ? raw.account_id : '',
    accountName: typeof raw.account_name === 'string' ? raw.account_name : '',
    holdMinutes:
      typeof hold === 'number' &&
      Number.isInteger(hold) &&
      hold >= MIN_HOLD_MINUTES &&
      hold <= MAX_HOLD_MINUTES
        ? hold
        : DEFAULT_HOLD_MINUTES,
  };
}

export function storedPaymentSettings(settings: PaymentSettings): Record<string, unknown> {
  return {
    provider: settings.provider,
    account_id: settings.accountId,
    account_name: settings.accountName,
    hold_minutes: settings.holdMinutes,
  };
}

/** The shapes of Stripe's keys: a secret or restricted key, and an endpoint signing secret. */
export function checkStripeKeys(input: {
  secretKey: string;
  webhookSecret: string;
}): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!/^(sk|rk)_(live|test)_[A-Za-z0-9]{8,}$/.test(input.secretKey.trim()))
    errors.secret_key = ['Enter a Stripe secret key (sk_live_… or sk_test_…) or restricted key (rk_…).'];
  if (!/^whsec_[A-Za-z0-9+/=]{8,}$/.test(input.webhookSecret.trim()))
    errors.webhook_secret = ['Enter the signing secret of the webhook endpoint (whsec_…).'];
  return errors;
}
