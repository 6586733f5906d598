import { recordAudit } from '../audit/audit.service.js';
import { notFound, validationFailed } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { secretBoxOf } from '../platform/secrets.js';
import type { Actor } from '../workspaces/request-context.js';
import { type PaymentPolicy, PRESETS, paymentPolicyOf, storedPaymentPolicy } from './payment-policy.rules.js';
import { type PaymentConfig, providerFor, sealPaymentCredentials } from './payment-providers.service.js';
import {
  checkStripeKeys,
  DEFAULT_HOLD_MINUTES,
  MAX_HOLD_MINUTES,
  MIN_HOLD_MINUTES,
  type PaymentSettings,
  paymentSettingsOf,
  storedPaymentSettings,
} from './payment-settings.rules.js';
import {
  findPaymentConfig,
  findServicePolicy,
  savePaymentConfig,
  saveServicePolicy,
} from './payments.repository.js';

export interface ConnectStripeInput {
  secret_key: string;
  webhook_secret: string;
  hold_minutes?: number | undefined;
}

/**
 * Settings → Payments → Connect Stripe: the keys' shapes, then a live check against Stripe (the
 * account they belong to), then sealed with the server key (SecretKeyMissing when there is
 * none) and never shown again. The audit log records the account, never a key.
 */
export async function connectStripe(
  uow: UnitOfWork,
  workspaceId: string,
  actor: Actor,
  input: ConnectStripeInput,
  config: PaymentConfig,
): Promise<PaymentSettings> {
  const credentials = { secretKey: input.secret_key.trim(), webhookSecret: input.webhook_secret.trim() };
  const errors = checkStripeKeys(credentials);
  const hold = input.hold_minutes ?? DEFAULT_HOLD_MINUTES;
  if (!Number.isInteger(hold) || hold < MIN_HOLD_MINUTES || hold > MAX_HOLD_MINUTES)
    errors.hold_minutes = [`Enter whole minutes from ${MIN_HOLD_MINUTES} to ${MAX_HOLD_MINUTES}.`];
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  const box = secretBoxOf(config);
  // Before the live check: a server that cannot keep the keys says so without calling Stripe.
  const sealed = sealPaymentCredentials(box, workspaceId, credentials);
  let account: { id: string; name: string };
  try {
    account = await providerFor(config, credentials, 10_000).checkAccount();
  } catch (error) {
    if ((error as { code?: string }).code === 'payment_refused')
      throw validationFailed({ secret_key: ['Stripe refused this key: check it and try again.'] });
    throw error;
  }
  const settings: PaymentSettings = {
    provider: 'stripe',
    accountId: account.id,
    accountName: account.name,
    holdMinutes: hold,
  };
  await uow.run(workspaceId, async (tx) => {
    await savePaymentConfig(tx, workspaceId, storedPaymentSettings(settings), sealed);
    await recordAudit(tx, workspaceId, actor, 'settings.payments_connected', null, {
      provider: 'stripe',
      account_id: account.id,
      hold_minutes: hold,
    });
  });
  return settings;
}

/** Disconnects the provider: its credentials are dropped; bookings already paid keep their records. */
export async function disconnectPayments(uow: UnitOfWork, workspaceId: string, actor: Actor): Promise<void> {
  await uow.run(workspaceId, async (tx) => {
    await savePaymentConfig(tx, workspaceId, {}, null);
    await recordAudit(tx, workspaceId, actor, 'settings.payments_disconnected', null, {});
  });
}

/** What the panel and the API show: never a credential. */
export async function paymentSettingsView(db: Db, workspaceId: string, config: PaymentConfig) {
  const row = await findPaymentConfig(db, workspaceId);
  const settings = paymentSettingsOf(row?.payment_settings);
  return {
    settings,
    connected: settings.provider !== null && Boolean(row?.payment_credentials),
    canSaveCredentials: secretBoxOf(config).available,
  };
}

/** A service's payment policy as the API and the panel show it. */
export function presentPaymentPolicy(policy: PaymentPolicy) {
  return {
    collect: policy.collect,
    deposit_type: policy.deposit.type,
    deposit_amount: policy.deposit.type === 'fixed' ? policy.deposit.amount : null,
    deposit_percent: policy.deposit.type === 'percent' ? policy.deposit.percent : null,
    preset: policy.preset,
    free_cancellation_hours: policy.cancellation.freeHours,
    late_cancel_fee_percent: policy.cancellation.lateFeePercent,
    no_show_fee_percent: policy.cancellation.noShowFeePercent,
  };
}

export interface PaymentPolicyInput {
  collect: PaymentPolicy['collect'];
  deposit_type?: 'fixed' | 'percent' | undefined;
  deposit_amount?: number | null | undefined;
  deposit_percent?: number | null | undefined;
  preset: PaymentPolicy['preset'];
  free_cancellation_hours?: number | undefined;
  late_cancel_fee_percent?: number | undefined;
  no_show_fee_percent?: number | undefined;
}

/** The policy of a live service of the workspace (404 for another workspace's). */
export async function getPaymentPolicy(db: Db, workspaceId: string, serviceId: string) {
  const row = await findServicePolicy(db, workspaceId, serviceId);
  if (!row) throw notFound('Service');
  return presentPaymentPolicy(paymentPolicyOf(row.payment_policy));
}

/**
 * Sets a service's payment policy: a preset's cancellation terms or custom ones (field errors in
 * one 422). A policy that collects needs no provider to be saved, but collects nothing until one
 * is connected.
 */
export async function setPaymentPolicy(
  uow: UnitOfWork,
  workspaceId: string,
  actor: Actor,
  serviceId: string,
  input: PaymentPolicyInput,
) {
  const errors: Record<string, string[]> = {};
  const depositType = input.deposit_type ?? 'percent';
  if (input.collect === 'deposit') {
    if (
      depositType === 'fixed' &&
      !(Number.isInteger(input.deposit_amount) && (input.deposit_amount ?? 0) > 0)
    )
      errors.deposit_amount = ['Enter the deposit in minor units, more than 0.'];
    if (
      depositType === 'percent' &&
      !(
        Number.isInteger(input.deposit_percent) &&
        (input.deposit_percent ?? 0) >= 1 &&
        (input.deposit_percent ?? 0) <= 100
      )
    )
      errors.deposit_percent = ['Enter a percentage from 1 to 100.'];
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  const policy: PaymentPolicy = {
    collect: input.collect,
    deposit:
      depositType === 'fixed'
        ? { type: 'fixed', amount: input.deposit_amount ?? 0 }
        : { type: 'percent', percent: input.deposit_percent ?? 0 },
    preset: input.preset,
    cancellation:
      input.preset === 'custom'
        ? {
            freeHours: input.free_cancellation_hours ?? 0,
            lateFeePercent: input.late_cancel_fee_percent ?? 0,
            noShowFeePercent: input.no_show_fee_percent ?? 0,
          }
        : { ...PRESETS[input.preset] },
  };
  await uow.run(workspaceId, async (tx) => {
    if (!(await saveServicePolicy(tx, workspaceId, serviceId, storedPaymentPolicy(policy))))
      throw notFound('Service');
    await recordAudit(
      tx,
      workspaceId,
      actor,
      'settings.payment_policy_changed',
      serviceId,
      presentPaymentPolicy(policy),
    );
  });
  return presentPaymentPolicy(policy);
}
