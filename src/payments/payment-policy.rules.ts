/**
 * A service's payment policy (`services.payment_policy`, jsonb, always read through
 * `paymentPolicyOf`) and the money it decides: what is due when booking, what a cancellation or a
 * no-show keeps, charges and refunds. Pure: no clock, no database, no provider. Amounts are
 * integers in minor units of the workspace currency; a percentage of an amount is rounded half up
 * to the minor unit, once, so the parts of a settlement always add up to what was paid.
 */

/** What is collected when booking. */
export const COLLECT_MODES = ['none', 'deposit', 'prepayment', 'card_on_file'] as const;
export type CollectMode = (typeof COLLECT_MODES)[number];

export const POLICY_PRESETS = ['flexible', 'moderate', 'strict'] as const;
export type PolicyPreset = (typeof POLICY_PRESETS)[number];

export interface CancellationPolicy {
  /** A cancellation this many hours or more before the start is free. */
  freeHours: number;
  /** A later cancellation keeps this percentage of the price. */
  lateFeePercent: number;
  /** A no-show keeps this percentage of the price. */
  noShowFeePercent: number;
}

export interface PaymentPolicy {
  collect: CollectMode;
  /** For `deposit`: a fixed amount (minor units) or a percentage of the price. */
  deposit: { type: 'fixed'; amount: number } | { type: 'percent'; percent: number };
  /** The preset the cancellation terms come from, or 'custom'. */
  preset: PolicyPreset | 'custom';
  cancellation: CancellationPolicy;
}

export const PRESETS: Record<PolicyPreset, CancellationPolicy> = {
  flexible: { freeHours: 2, lateFeePercent: 0, noShowFeePercent: 50 },
  moderate: { freeHours: 24, lateFeePercent: 50, noShowFeePercent: 100 },
  strict: { freeHours: 48, lateFeePercent: 100, noShowFeePercent: 100 },
};

/** The policy of a service that never set one: what Kairos did before payments. */
export const NO_PAYMENT_POLICY: PaymentPolicy = {
  collect: 'none',
  deposit: { type: 'percent', percent: 0 },
  preset: 'custom',
  cancellation: { freeHours: 0, lateFeePercent: 0, noShowFeePercent: 0 },
};

export const MAX_FREE_HOURS = 24 * 30;

const isInt = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** The stored policy → the policy in force; anything unreadable falls back to no payment. */
export function paymentPolicyOf(stored: Record<string, unknown> | null | undefined): PaymentPolicy {
  const raw = stored ?? {};
  const collect = (COLLECT_MODES as readonly unknown[]).includes(raw.collect)
    ? (raw.collect as CollectMode)
    : 'none';
  const rawDeposit = (raw.deposit ?? {}) as Record<string, unknown>;
  const deposit: PaymentPolicy['deposit'] =
    rawDeposit.type === 'fixed' && isInt(rawDeposit.amount, 0, Number.MAX_SAFE_INTEGER)
      ? { type: 'fixed', amount: rawDeposit.amount }
      : { type: 'percent', percent: isInt(rawDeposit.percent, 0, 100) ? rawDeposit.percent : 0 };
  const preset = (POLICY_PRESETS as readonly unknown[]).includes(raw.preset)
    ? (raw.preset as PolicyPreset)
    : 'custom';
  const rawCancel = (raw.cancellation ?? {}) as Record<string, unknown>;
  const cancellation =
    preset === 'custom'
      ? {
          freeHours: isInt(rawCancel.free_hours, 0, MAX_FREE_HOURS) ? rawCancel.free_hours : 0,
          lateFeePercent: isInt(rawCancel.late_fee_percent, 0, 100) ? rawCancel.late_fee_percent : 0,
          noShowFeePercent: isInt(rawCancel.no_show_fee_percent, 0, 100) ? rawCancel.no_show_fee_percent : 0,
        }
      : { ...PRESETS[preset] };
  return { collect, deposit, preset, cancellation };
}

/** The policy as stored (snake_case jsonb), the inverse of `paymentPolicyOf`. */
export function storedPaymentPolicy(policy: PaymentPolicy): Record<string, unknown> {
  return {
    collect: policy.collect,
    deposit: policy.deposit,
    preset: policy.preset,
    cancellation: {
      free_hours: policy.cancellation.freeHours,
      late_fee_percent: policy.cancellation.lateFeePercent,
      no_show_fee_percent: policy.cancellation.noShowFeePercent,
    },
  };
}

/** `percent` % of `amount` minor units, rounded half up to a whole minor unit. */
export function percentOf(amount: number, percent: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`not an amount: ${amount}`);
  if (!Number.isInteger(percent) || percent < 0 || percent > 100)
    throw new RangeError(`not a percentage: ${percent}`);
  // Integer arithmetic: amount * percent stays exact below 2^53 / 100.
  return Math.floor((amount * percent + 50) / 100);
}

/**
 * What the booking page collects before confirming, for a booking of `price` minor units:
 * `amount` 0 with mode `setup` keeps a card without charging (card on file); mode `none` collects
 * nothing. A fixed deposit larger than the price is capped at the price.
 */
export function amountDue(
  policy: PaymentPolicy,
  price: number,
): { mode: 'none' | 'payment' | 'setup'; amount: number; kind?: 'deposit' | 'prepayment' } {
  switch (policy.collect) {
    case 'none':
      return { mode: 'none', amount: 0 };
    case 'card_on_file':
      return { mode: 'setup', amount: 0 };
    case 'prepayment':
      return price > 0 ? { mode: 'payment', amount: price, kind: 'prepayment' } : { mode: 'none', amount: 0 };
    case 'deposit': {
      const amount =
        policy.deposit.type === 'fixed'
          ? Math.min(policy.deposit.amount, price)
          : percentOf(price, policy.deposit.percent);
      return amount > 0 ? { mode: 'payment', amount, kind: 'deposit' } : { mode: 'none', amount: 0 };
    }
  }
}

/**
 * How a cancellation or a no-show settles: `keep` of what was paid stays with the business as
 * the fee, `refund` goes back to the customer, `charge` is charged to the card on file (the fee
 * beyond what was paid; 0 when there is no card: it cannot be collected and is not tried).
 * keep + refund = paid, always; keep + charge = the fee when a card is on file.
 */
export interface Settlement {
  fee: number;
  keep: number;
  refund: number;
  charge: number;
  /** Whether the cancellation was inside the free period (no fee). */
  free: boolean;
}

export interface SettlementInput {
  policy: PaymentPolicy;
  /** The booking's price, minor units. */
  price: number;
  /** What the provider holds of the customer's money now: succeeded payments minus refunds. */
  paid: number;
  /** A card kept on file that a fee can be charged to. */
  cardOnFile: boolean;
}

function settle(fee: number, input: SettlementInput, free: boolean): Settlement {
  const keep = Math.min(fee, input.paid);
  const rest = fee - keep;
  return { fee, keep, refund: input.paid - keep, charge: input.cardOnFile ? rest : 0, free };
}

/** A cancellation at `canceledAt` of a booking starting at `startsAt` (epoch ms). */
export function cancellationSettlement(
  input: SettlementInput & { startsAt: number; canceledAt: number },
): Settlement {
  const freeUntil = input.startsAt - input.policy.cancellation.freeHours * 3_600_000;
  if (input.canceledAt <= freeUntil) return settle(0, input, true);
  return settle(percentOf(input.price, input.policy.cancellation.lateFeePercent), input, false);
}

/** The customer did not come: the no-show fee, kept from what was paid, the rest on the card. */
export function noShowSettlement(input: SettlementInput): Settlement {
  return settle(percentOf(input.price, input.policy.cancellation.noShowFeePercent), input, false);
}

/**
 * A manual refund of `requested` minor units (undefined: all that is left), given what was paid
 * and already refunded. Undefined when nothing can be refunded or the request is out of bounds.
 */
export function refundableAmount(paid: number, refunded: number, requested?: number): number | undefined {
  const left = paid - refunded;
  if (left <= 0) return undefined;
  if (requested === undefined) return left;
  if (!Number.isSafeInteger(requested) || requested <= 0 || requested > left) return undefined;
  return requested;
}
