import { describe, expect, it } from 'vitest';
import {
  amountDue,
  cancellationSettlement,
  NO_PAYMENT_POLICY,
  noShowSettlement,
  type PaymentPolicy,
  paymentPolicyOf,
  percentOf,
  refundableAmount,
  storedPaymentPolicy,
} from './payment-policy.rules.js';

const HOUR = 3_600_000;

describe('percentOf (minor units, half up)', () => {
  it.each([
    [1000, 25, 250],
    [999, 50, 500], // 499.5 -> 500
    [999, 10, 100], // 99.9 -> 100
    [101, 50, 51], // 50.5 -> 51
    [3, 33, 1], // 0.99 -> 1
    [1, 49, 0], // 0.49 -> 0
    [1, 50, 1], // 0.5 -> 1
    [0, 100, 0],
    [12345, 100, 12345],
    [12345, 0, 0],
    [90_000_000_000, 15, 13_500_000_000],
  ])('%i × %i%% = %i', (amount, percent, expected) => {
    expect(percentOf(amount, percent)).toBe(expected);
  });

  it('refuses what is no amount or no percentage', () => {
    expect(() => percentOf(-1, 10)).toThrow(RangeError);
    expect(() => percentOf(10.5, 10)).toThrow(RangeError);
    expect(() => percentOf(10, 101)).toThrow(RangeError);
    expect(() => percentOf(10, 2.5)).toThrow(RangeError);
  });
});

describe('paymentPolicyOf', () => {
  it('reads an empty or unreadable policy as no payment (existing services unchanged)', () => {
    expect(paymentPolicyOf({})).toEqual(NO_PAYMENT_POLICY);
    expect(paymentPolicyOf(null)).toEqual(NO_PAYMENT_POLICY);
    expect(paymentPolicyOf({ collect: 'bitcoin', deposit: { type: 'fixed', amount: -5 } }).collect).toBe(
      'none',
    );
    expect(paymentPolicyOf({ collect: 'deposit', deposit: { type: 'fixed', amount: -5 } }).deposit).toEqual({
      type: 'percent',
      percent: 0,
    });
  });

  it('takes the cancellation terms of a preset, whatever custom values are stored beside it', () => {
    const policy = paymentPolicyOf({
      collect: 'deposit',
      deposit: { type: 'percent', percent: 20 },
      preset: 'moderate',
      cancellation: { free_hours: 1, late_fee_percent: 5, no_show_fee_percent: 5 },
    });
    expect(policy.cancellation).toEqual({ freeHours: 24, lateFeePercent: 50, noShowFeePercent: 100 });
  });

  it('keeps custom values in range and drops the rest', () => {
    const policy = paymentPolicyOf({
      collect: 'card_on_file',
      preset: 'custom',
      cancellation: { free_hours: 12, late_fee_percent: 150, no_show_fee_percent: 80 },
    });
    expect(policy.cancellation).toEqual({ freeHours: 12, lateFeePercent: 0, noShowFeePercent: 80 });
  });

  it('round-trips through its stored form', () => {
    const policy: PaymentPolicy = {
      collect: 'deposit',
      deposit: { type: 'fixed', amount: 1500 },
      preset: 'custom',
      cancellation: { freeHours: 6, lateFeePercent: 30, noShowFeePercent: 70 },
    };
    expect(paymentPolicyOf(JSON.parse(JSON.stringify(storedPaymentPolicy(policy))))).toEqual(policy);
  });
});

const policy = (overrides: Partial<PaymentPolicy>): PaymentPolicy => ({ ...NO_PAYMENT_POLICY, ...overrides });

describe('amountDue', () => {
  it.each<[string, PaymentPolicy, number, ReturnType<typeof amountDue>]>([
    ['no payment', NO_PAYMENT_POLICY, 5000, { mode: 'none', amount: 0 }],
    [
      'a 20% deposit of 49.99',
      policy({ collect: 'deposit', deposit: { type: 'percent', percent: 20 } }),
      4999,
      { mode: 'payment', amount: 1000, kind: 'deposit' }, // 999.8 -> 1000
    ],
    [
      'a fixed deposit',
      policy({ collect: 'deposit', deposit: { type: 'fixed', amount: 1500 } }),
      5000,
      { mode: 'payment', amount: 1500, kind: 'deposit' },
    ],
    [
      'a fixed deposit above the price is the price',
      policy({ collect: 'deposit', deposit: { type: 'fixed', amount: 9000 } }),
      5000,
      { mode: 'payment', amount: 5000, kind: 'deposit' },
    ],
    [
      'a deposit of nothing collects nothing',
      policy({ collect: 'deposit', deposit: { type: 'percent', percent: 10 } }),
      4,
      { mode: 'none', amount: 0 }, // 0.4 -> 0
    ],
    [
      'full prepayment',
      policy({ collect: 'prepayment' }),
      4999,
      { mode: 'payment', amount: 4999, kind: 'prepayment' },
    ],
    ['prepayment of a free service', policy({ collect: 'prepayment' }), 0, { mode: 'none', amount: 0 }],
    [
      'a card on file charges nothing',
      policy({ collect: 'card_on_file' }),
      5000,
      { mode: 'setup', amount: 0 },
    ],
  ])('%s', (_name, p, price, expected) => {
    expect(amountDue(p, price)).toEqual(expected);
  });
});

describe('cancellationSettlement', () => {
  const start = Date.UTC(2026, 11, 1, 10, 0);
  const moderate = paymentPolicyOf({
    collect: 'deposit',
    deposit: { type: 'percent', percent: 30 },
    preset: 'moderate',
  });
  const strictCard = paymentPolicyOf({ collect: 'card_on_file', preset: 'strict' });

  it.each<
    [
      string,
      Parameters<typeof cancellationSettlement>[0],
      Omit<ReturnType<typeof cancellationSettlement>, never>,
    ]
  >([
    [
      'exactly at the end of the free period: free, all refunded',
      {
        policy: moderate,
        price: 8000,
        paid: 2400,
        cardOnFile: false,
        startsAt: start,
        canceledAt: start - 24 * HOUR,
      },
      { fee: 0, keep: 0, refund: 2400, charge: 0, free: true },
    ],
    [
      'a minute late: the 50% fee is kept from the deposit, which is smaller, nothing refunded',
      {
        policy: moderate,
        price: 8000,
        paid: 2400,
        cardOnFile: false,
        startsAt: start,
        canceledAt: start - 24 * HOUR + 60_000,
      },
      { fee: 4000, keep: 2400, refund: 0, charge: 0, free: false },
    ],
    [
      'late with a prepayment: the fee kept, the rest refunded',
      {
        policy: moderate,
        price: 8001,
        paid: 8001,
        cardOnFile: false,
        startsAt: start,
        canceledAt: start - HOUR,
      },
      { fee: 4001, keep: 4001, refund: 4000, charge: 0, free: false }, // 4000.5 -> 4001
    ],
    [
      'late with a card on file: the whole fee charged to the card',
      {
        policy: strictCard,
        price: 5000,
        paid: 0,
        cardOnFile: true,
        startsAt: start,
        canceledAt: start - HOUR,
      },
      { fee: 5000, keep: 0, refund: 0, charge: 5000, free: false },
    ],
    [
      'late with a deposit and a card: the deposit kept, the rest of the fee on the card',
      {
        policy: moderate,
        price: 8000,
        paid: 2400,
        cardOnFile: true,
        startsAt: start,
        canceledAt: start - HOUR,
      },
      { fee: 4000, keep: 2400, refund: 0, charge: 1600, free: false },
    ],
    [
      'no policy: free at any time, nothing moves',
      {
        policy: NO_PAYMENT_POLICY,
        price: 8000,
        paid: 0,
        cardOnFile: false,
        startsAt: start,
        canceledAt: start + HOUR,
      },
      { fee: 0, keep: 0, refund: 0, charge: 0, free: false },
    ],
  ])('%s', (_name, input, expected) => {
    const result = cancellationSettlement(input);
    expect(result).toEqual(expected);
    expect(result.keep + result.refund).toBe(input.paid);
  });

  it('keep + refund is what was paid, for every price, deposit and fee', () => {
    for (let price = 0; price <= 1001; price += 7) {
      for (const percent of [0, 1, 33, 50, 67, 99, 100]) {
        for (const paid of [0, percentOf(price, 30), price]) {
          const p = paymentPolicyOf({
            collect: 'deposit',
            preset: 'custom',
            cancellation: { free_hours: 1, late_fee_percent: percent },
          });
          const s = cancellationSettlement({
            policy: p,
            price,
            paid,
            cardOnFile: true,
            startsAt: start,
            canceledAt: start,
          });
          expect(s.keep + s.refund).toBe(paid);
          expect(s.keep + s.charge).toBe(s.fee);
          expect(s.refund).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });
});

describe('noShowSettlement', () => {
  it('charges the fee to the card on file', () => {
    const p = paymentPolicyOf({ collect: 'card_on_file', preset: 'flexible' });
    expect(noShowSettlement({ policy: p, price: 3999, paid: 0, cardOnFile: true })).toEqual({
      fee: 2000, // 1999.5 -> 2000
      keep: 0,
      refund: 0,
      charge: 2000,
      free: false,
    });
  });

  it('without a card, keeps what it can of the deposit and refunds the excess over the fee', () => {
    const p = paymentPolicyOf({
      collect: 'deposit',
      preset: 'custom',
      cancellation: { no_show_fee_percent: 10 },
    });
    expect(noShowSettlement({ policy: p, price: 10000, paid: 3000, cardOnFile: false })).toEqual({
      fee: 1000,
      keep: 1000,
      refund: 2000,
      charge: 0,
      free: false,
    });
  });
});

describe('refundableAmount', () => {
  it.each<[number, number, number | undefined, number | undefined]>([
    [5000, 0, undefined, 5000],
    [5000, 2000, undefined, 3000],
    [5000, 2000, 3000, 3000],
    [5000, 2000, 3001, undefined],
    [5000, 5000, undefined, undefined],
    [5000, 0, 0, undefined],
    [5000, 0, 10.5, undefined],
    [0, 0, undefined, undefined],
  ])('paid %i, refunded %i, asked %s -> %s', (paid, refunded, requested, expected) => {
    expect(refundableAmount(paid, refunded, requested)).toBe(expected);
  });
});
