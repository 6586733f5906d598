import { recordAudit } from '../audit/audit.service.js';
import { cancelBooking } from '../bookings/booking-changes.service.js';
import { netPaid } from '../bookings/booking-money.rules.js';
import { type BookingView, lockBooking, requireBookingView } from '../bookings/bookings.repository.js';
import { type BookingContext, type CreateBookingInput, createBooking } from '../bookings/bookings.service.js';
import { AppError } from '../errors.js';
import { recordEvents } from '../outbox/outbox.repository.js';
import type { Db } from '../platform/db/client.js';
import type { PaymentKind } from '../platform/db/schema.js';
import type { Tx, UnitOfWork } from '../platform/db/unit-of-work.js';
import { isUuid } from '../platform/uuid.js';
import { findWorkspaceById, type WorkspaceRow } from '../workspaces/workspaces.repository.js';
import {
  amountDue,
  cancellationSettlement,
  noShowSettlement,
  paymentPolicyOf,
  refundableAmount,
  type Settlement,
} from './payment-policy.rules.js';
import { NoPaymentProvider, type PaymentConfig, workspaceProvider } from './payment-providers.service.js';
import { paymentSettingsOf } from './payment-settings.rules.js';
import {
  type BookingMoney,
  expiredHolds,
  findBookingMoney,
  findCheckoutOperation,
  findOperation,
  findPaymentConfig,
  finishOperation,
  insertOperation,
  markEventHandled,
  onlineAccountOf,
  owedRefunds,
  providerPaymentsOf,
  recordPayment,
  setBookingPaymentState,
  settleHold,
} from './payments.repository.js';
import type { CheckoutState, PaymentProvider, ProviderEvent } from './providers/payment-provider.js';

/** The name of the location's online account that provider payments are credited to. */
export const PROVIDER_ACCOUNT_NAME = 'Stripe';

/** The workspace's provider; NoPaymentProvider without one. */
export async function requirePaymentProvider(db: Db, config: PaymentConfig, workspaceId: string) {
  const row = await findPaymentConfig(db, workspaceId);
  const settings = paymentSettingsOf(row?.payment_settings);
  const provider = workspaceProvider(config, workspaceId, settings, row?.payment_credentials ?? null);
  if (!provider) throw new NoPaymentProvider();
  return { provider, settings, currency: row?.currency ?? 'EUR' };
}

/**
 * Whether the workspace has a provider to collect through (the booking page shows a policy only
 * then), without opening its credentials.
 */
export async function hasPaymentProvider(db: Db, workspaceId: string): Promise<boolean> {
  const row = await findPaymentConfig(db, workspaceId);
  return paymentSettingsOf(row?.payment_settings).provider !== null && Boolean(row?.payment_credentials);
}

/**
 * POST /bookings: as before unless the request sets `collect_payment`; then the workspace must
 * have a provider (409 payment_provider_missing, before anything is written) and the booking
 * waits for what its policy asks (startCheckout), its answer carrying the `payment` link.
 */
export async function createBookingCollecting(
  ctx: BookingContext,
  config: PaymentConfig,
  input: CreateBookingInput & { collect_payment?: boolean | undefined },
): Promise<BookingView> {
  if (input.collect_payment !== true) return createBooking(ctx, input);
  // Reads go through the unit of work's connection: inside a keyed write it is the open
  // transaction's, and the embedded store has one connection (another read would wait forever).
  await requirePaymentProvider(ctx.uow.db, config, ctx.workspace.id);
  const view = await createBooking(ctx, input);
  const checkout = await startCheckout(ctx, config, view.id);
  return checkout ? requireBookingView(ctx.uow.db, ctx.workspace.id, view.id) : view;
}

/** Where the provider's hosted page sends the customer back: ours, checked with the provider. */
export function checkoutReturnUrls(linkBase: string, workspaceId: string) {
  const base = `${linkBase}/hooks/payments/${workspaceId}/stripe`;
  return {
    successUrl: `${base}/return?session={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${base}/return?session={CHECKOUT_SESSION_ID}`,
  };
}

/**
 * After a booking was created with its seat taken: when its policy asks for money, the booking
 * waits for it (`awaiting_payment`, its seat held until the hold ends) and the provider makes a
 * checkout, the one provider round trip of the create. Its id is the owed operation's, as the
 * idempotency key. When the provider cannot make it, the hold is released at once (the booking
 * canceled as `abandoned`, its seat free) and the error answered: nothing was charged.
 * Undefined when nothing is due (the booking stays as created).
 */
export async function startCheckout(
  ctx: BookingContext,
  config: PaymentConfig,
  bookingId: string,
): Promise<{ url: string; amount: number } | undefined> {
  const workspaceId = ctx.workspace.id;
  const { provider, settings, currency } = await requirePaymentProvider(ctx.uow.db, config, workspaceId);
  const held = await ctx.uow.run(workspaceId, async (tx) => {
    const money = await findBookingMoney(tx, workspaceId, bookingId);
    if (!money) throw new AppError(404, 'not_found', 'Booking not found.');
    const due = amountDue(paymentPolicyOf(money.policy), money.price);
    if (due.mode === 'none') return undefined;
    const holdUntil = new Date(ctx.now + settings.holdMinutes * 60_000);
    await setBookingPaymentState(tx, workspaceId, bookingId, 'awaiting_payment', holdUntil);
    const operationId = await insertOperation(tx, {
      workspaceId,
      bookingId,
      kind: 'checkout',
      amount: due.amount,
      provider: provider.name,
      createdBy: ctx.actor.type,
      nextAttemptAt: new Date(ctx.now),
    });
    return { money, due, operationId };
  });
  if (!held) return undefined;
  const { money, due, operationId } = held;
  const urls = checkoutReturnUrls(ctx.linkBase, workspaceId);
  let checkout: CheckoutState;
  try {
    checkout = await provider.createCheckout({
      mode: due.mode === 'setup' ? 'setup' : 'payment',
      amount: due.amount,
      currency,
      description: `${due.kind === 'prepayment' ? 'Prepayment' : due.kind === 'deposit' ? 'Deposit' : 'Card on file'}: ${money.service_name}`,
      customerEmail: money.customer_email || undefined,
      ...urls,
      metadata: { workspace_id: workspaceId, booking_id: bookingId, operation_id: operationId },
      idempotencyKey: operationId,
    });
  } catch (error) {
    await finishOperation(ctx.uow.db, workspaceId, operationId, {
      state: 'failed',
      response: (error as Error).message,
    });
    await releaseHold(ctx, bookingId);
    throw error;
  }
  await finishOperation(ctx.uow.db, workspaceId, operationId, {
    state: 'done',
    providerRef: checkout.id,
    providerUrl: checkout.url,
    response: `checkout ${checkout.id} ${checkout.status}`,
  });
  return { url: checkout.url ?? '', amount: due.amount };
}

/**
 * Releases a booking's unpaid hold: canceled with reason `abandoned` (its seat free at once), in
 * one transaction with the check that it is still unpaid, and the provider's checkout owed an
 * expiry so it cannot be paid any more. A payment that still lands (the customer paid in the
 * last second) is refunded in full (applyCheckout). False when the booking no longer waits.
 */
export async function releaseHold(ctx: BookingContext, bookingId: string): Promise<boolean> {
  const workspaceId = ctx.workspace.id;
  return ctx.uow.runJoined(workspaceId, async (tx, unit) => {
    const booking = await lockBooking(tx, workspaceId, bookingId);
    if (booking.payment_state !== 'awaiting_payment') return false;
    await cancelBooking({ ...ctx, db: tx, uow: unit }, bookingId, 'abandoned');
    await setBookingPaymentState(tx, workspaceId, bookingId, 'failed', null);
    const checkout = await findCheckoutOperation(tx, workspaceId, bookingId);
    if (checkout?.provider_ref)
      await insertOperation(tx, {
        workspaceId,
        bookingId,
        kind: 'expire_checkout',
        amount: 0,
        provider: checkout.provider,
        providerRef: checkout.provider_ref,
        nextAttemptAt: new Date(ctx.now),
      });
    return true;
  });
}

/**
 * Releases every hold that ended at or before `now` (the worker's sweep, each minute and on
 * start). The slot is free again when its booking commits as canceled.
 */
export async function releaseExpiredHolds(
  db: Db,
  contextOf: (workspace: WorkspaceRow) => BookingContext,
  now: number,
  limit = 100,
): Promise<number> {
  let released = 0;
  const workspaces = new Map<string, WorkspaceRow | undefined>();
  for (const hold of await expiredHolds(db, new Date(now), limit)) {
    if (!workspaces.has(hold.workspace_id))
      workspaces.set(hold.workspace_id, await findWorkspaceById(db, hold.workspace_id));
    const workspace = workspaces.get(hold.workspace_id);
    if (!workspace) continue;
    if (await releaseHold(contextOf(workspace), hold.id)) released += 1;
  }
  return released;
}

/**
 * Records a movement of money once (by its provider reference) and, when this call recorded it,
 * tells the workspace's webhooks: `payment-refunded` for a refund, `payment-failed` for a charge
 * or fee that failed, else `payment-succeeded` (docs/webhooks.md). True when it was recorded now.
 */
export async function landPayment(
  tx: Tx,
  values: Parameters<typeof recordPayment>[1],
  at: number,
): Promise<boolean> {
  const id = await recordPayment(tx, values);
  if (id === undefined) return false;
  const workspace = await findWorkspaceById(tx, values.workspaceId);
  const booking = await findBookingMoney(tx, values.workspaceId, values.bookingId);
  const type =
    values.kind === 'refund'
      ? 'payment-refunded'
      : values.status === 'failed'
        ? 'payment-failed'
        : 'payment-succeeded';
  await recordEvents(tx, {
    workspaceId: values.workspaceId,
    workspaceSlug: workspace?.slug ?? '',
    at: new Date(at),
    subject: {
      kind: 'payment',
      id,
      data: {
        uuid: id,
        booking_uuid: values.bookingId,
        order_uuid: booking?.order_id ?? null,
        account_uuid: values.accountId,
        provider: values.provider,
        reference: values.reference,
        kind: values.kind,
        amount: values.amount,
        currency: workspace?.currency ?? null,
        status: values.status,
      },
    },
    events: [{ type, sequence: 1 }],
    change: null,
  });
  return true;
}

const paidKind = (amount: number, price: number): PaymentKind => (amount >= price ? 'prepayment' : 'deposit');

/**
 * A completed checkout, from whichever tells first: the webhook, the customer's return, the
 * reconciliation. Lands once (the charge's reference is unique per provider); settles the hold
 * only from awaiting_payment; when the booking was released before the payment landed, the
 * payment is recorded and a full refund owed. Returns the booking id it belonged to.
 */
export async function applyCheckout(
  tx: Tx,
  workspaceId: string,
  provider: PaymentProvider['name'],
  checkout: CheckoutState,
  now: number,
): Promise<string | undefined> {
  const bookingId = checkout.metadata.booking_id;
  if (checkout.metadata.workspace_id !== workspaceId || !bookingId || !isUuid(bookingId)) return undefined;
  if (checkout.status !== 'complete') return bookingId;
  const booking = await lockBooking(tx, workspaceId, bookingId);
  const money = await findBookingMoney(tx, workspaceId, bookingId);
  if (!money) return undefined;
  const paid = checkout.paymentStatus === 'paid' && checkout.paymentRef !== null;
  let recorded = false;
  if (paid) {
    const accountId = await onlineAccountOf(tx, workspaceId, booking.location_id, PROVIDER_ACCOUNT_NAME);
    recorded = await landPayment(
      tx,
      {
        workspaceId,
        bookingId,
        accountId,
        provider,
        reference: checkout.paymentRef as string,
        kind: paidKind(checkout.amount, money.price),
        amount: checkout.amount,
        status: 'succeeded',
      },
      now,
    );
  }
  const settled = await settleHold(tx, workspaceId, bookingId, paid ? 'paid' : 'card_on_file');
  if (!settled && recorded && money.status_type === 'canceled')
    await insertOperation(tx, {
      workspaceId,
      bookingId,
      kind: 'refund',
      amount: checkout.amount,
      provider,
      providerRef: checkout.paymentRef,
      createdBy: 'system',
      nextAttemptAt: new Date(now),
    });
  return bookingId;
}

/** The workspace a hook URL names, with its provider; 404 for an unknown one or one without. */
async function hookProvider(db: Db, config: PaymentConfig, workspaceId: string) {
  if (!isUuid(workspaceId)) throw new AppError(404, 'not_found', 'Not found.');
  const workspace = await findWorkspaceById(db, workspaceId);
  if (!workspace) throw new AppError(404, 'not_found', 'Not found.');
  try {
    return { workspace, ...(await requirePaymentProvider(db, config, workspaceId)) };
  } catch {
    throw new AppError(404, 'not_found', 'Not found.');
  }
}

/**
 * A Stripe webhook to `/hooks/payments/<workspace id>/stripe`: verified with the workspace's
 * signing secret (400 when it does not verify), handled once per event id (a redelivery answers
 * 200 and changes nothing), in any order: every event carries the full object it tells of, and
 * each change lands once by its provider reference.
 */
export async function handlePaymentWebhook(
  db: Db,
  uow: UnitOfWork,
  config: PaymentConfig,
  workspaceId: string,
  hook: { body: string; signature: string | undefined },
  now: number,
): Promise<{ event: string; handled: boolean }> {
  const { provider } = await hookProvider(db, config, workspaceId);
  const event = provider.verifyEvent(hook.body, hook.signature);
  const handled = await uow.run(workspaceId, async (tx) => {
    const bookingId = bookingOfEvent(event);
    const first = await markEventHandled(tx, {
      workspaceId,
      provider: provider.name,
      eventId: event.id,
      type: event.type,
      bookingId: bookingId && isUuid(bookingId) ? bookingId : null,
    });
    if (!first) return false;
    await applyEvent(tx, workspaceId, provider.name, event, now);
    return true;
  });
  return { event: event.id, handled };
}

function bookingOfEvent(event: ProviderEvent): string | undefined {
  switch (event.type) {
    case 'checkout_completed':
    case 'checkout_expired':
      return event.checkout.metadata.booking_id;
    case 'payment_succeeded':
    case 'payment_failed':
    case 'refund_updated':
      return event.metadata.booking_id;
    default:
      return undefined;
  }
}

async function applyEvent(
  tx: Tx,
  workspaceId: string,
  provider: PaymentProvider['name'],
  event: ProviderEvent,
  now: number,
) {
  switch (event.type) {
    case 'checkout_completed':
      await applyCheckout(tx, workspaceId, provider, event.checkout, now);
      return;
    case 'payment_succeeded':
    case 'payment_failed': {
      const { booking_id: bookingId, operation_id: operationId, workspace_id: owner } = event.metadata;
      if (owner !== workspaceId || !bookingId || !operationId || !isUuid(bookingId) || !isUuid(operationId))
        return;
      const operation = await findOperation(tx, workspaceId, operationId);
      // A checkout's charge lands through checkout_completed (it knows the card and the hold).
      if (!operation || operation.kind === 'checkout') return;
      if (operation.kind !== 'late_cancel_fee' && operation.kind !== 'no_show_fee') return;
      const booking = await lockBooking(tx, workspaceId, bookingId);
      await landPayment(
        tx,
        {
          workspaceId,
          bookingId,
          accountId: await onlineAccountOf(tx, workspaceId, booking.location_id, PROVIDER_ACCOUNT_NAME),
          provider,
          reference: event.ref,
          kind: operation.kind,
          amount: event.amount,
          status: event.type === 'payment_succeeded' ? 'succeeded' : 'failed',
        },
        now,
      );
      return;
    }
    case 'refund_updated': {
      const { booking_id: bookingId, workspace_id: owner } = event.metadata;
      if (owner !== workspaceId || !bookingId || !isUuid(bookingId) || event.refund.status === 'failed')
        return;
      const booking = await lockBooking(tx, workspaceId, bookingId);
      await landPayment(
        tx,
        {
          workspaceId,
          bookingId,
          accountId: await onlineAccountOf(tx, workspaceId, booking.location_id, PROVIDER_ACCOUNT_NAME),
          provider,
          reference: event.refund.ref,
          kind: 'refund',
          amount: event.refund.amount,
          status: event.refund.status === 'succeeded' ? 'succeeded' : 'pending',
        },
        now,
      );
      return;
    }
    default:
      return;
  }
}

/**
 * The customer's return from the hosted page (`?session=`): the checkout is read from the
 * provider, never taken from the URL, and applied like its webhook (whichever comes first lands;
 * the other changes nothing). The booking's view, for the redirect to its manage page.
 */
export async function confirmCheckoutReturn(
  db: Db,
  uow: UnitOfWork,
  config: PaymentConfig,
  workspaceId: string,
  sessionId: string,
  now: number,
): Promise<{ workspace: WorkspaceRow; booking: BookingView }> {
  const { workspace, provider } = await hookProvider(db, config, workspaceId);
  if (!/^cs_[A-Za-z0-9_]+$/.test(sessionId)) throw new AppError(404, 'not_found', 'Not found.');
  const checkout = await provider.retrieveCheckout(sessionId);
  const bookingId = await uow.run(workspaceId, (tx) =>
    applyCheckout(tx, workspaceId, provider.name, checkout, now),
  );
  if (!bookingId) throw new AppError(404, 'not_found', 'Not found.');
  return { workspace, booking: await requireBookingView(db, workspaceId, bookingId) };
}

/** What the provider holds of a booking's money now: succeeded charges less succeeded refunds. */
const heldOf = netPaid;

/**
 * What a cancellation at `at` (reason `didnt_come`: a no-show) settles of a booking that was paid
 * or keeps a card: the settlement by the policy of its first service, with what the provider holds
 * now. Undefined when no provider money is involved (no payment state, or no checkout made).
 */
async function settlementOf(
  db: Db,
  workspaceId: string,
  booking: { id: string; payment_state: string | null; start_time: Date },
  reason: string | null,
  at: number,
  /** The booking's money when the caller has read it already. */
  known?: BookingMoney,
) {
  if (booking.payment_state !== 'paid' && booking.payment_state !== 'card_on_file') return undefined;
  const money = known ?? (await findBookingMoney(db, workspaceId, booking.id));
  const checkout = await findCheckoutOperation(db, workspaceId, booking.id);
  if (!money || !checkout?.provider_ref) return undefined;
  const payments = await providerPaymentsOf(db, workspaceId, booking.id);
  const input = {
    policy: paymentPolicyOf(money.policy),
    price: money.price,
    paid: Math.max(0, heldOf(payments)),
    cardOnFile: true,
  };
  const settlement =
    reason === 'didnt_come'
      ? noShowSettlement(input)
      : cancellationSettlement({ ...input, startsAt: booking.start_time.getTime(), canceledAt: at });
  return { settlement, payments, checkout };
}

/**
 * What canceling the booking at `at` (or marking it a no-show) would do with its money, for the
 * pages that ask before they act: the customer's cancel step, the panel's No-show. Read only; the
 * outbox handler decides again, under the booking's lock, when the cancellation happens.
 */
export async function settlementPreview(
  db: Db,
  workspaceId: string,
  bookingId: string,
  reason: 'canceled' | 'didnt_come',
  at: number,
): Promise<Settlement | undefined> {
  const booking = await findBookingMoney(db, workspaceId, bookingId);
  if (!booking) return undefined;
  return (await settlementOf(db, workspaceId, booking, reason, at, booking))?.settlement;
}

/**
 * A canceled booking's money, settled by its service's policy in the transaction that dispatches
 * its `booking-canceled` event (so exactly once): inside the free period everything paid is owed
 * back; later the late-cancel fee is kept and the rest owed back; reason `didnt_come` (No-show)
 * keeps the no-show fee; the part of a fee beyond what was paid is owed as a charge to the card
 * kept on file. The calls themselves are owed operations the payment round sends. A hold released
 * unpaid (`abandoned`) settles nothing here.
 */
export async function settleCancellation(
  tx: Tx,
  workspaceId: string,
  bookingId: string,
  canceledAt: number,
  now: number,
) {
  const booking = await lockBooking(tx, workspaceId, bookingId);
  if (booking.cancel_reason === 'abandoned') return undefined;
  const decided = await settlementOf(tx, workspaceId, booking, booking.cancel_reason, canceledAt);
  if (!decided) return undefined;
  const { settlement, payments, checkout } = decided;
  const charged = payments.find(
    (p) => (p.kind === 'deposit' || p.kind === 'prepayment') && p.status === 'succeeded',
  );
  const due = new Date(now);
  if (settlement.refund > 0 && charged?.reference)
    await insertOperation(tx, {
      workspaceId,
      bookingId,
      kind: 'refund',
      amount: Math.min(settlement.refund, charged.amount),
      provider: checkout.provider,
      providerRef: charged.reference,
      createdBy: 'system',
      nextAttemptAt: due,
    });
  if (settlement.charge > 0)
    await insertOperation(tx, {
      workspaceId,
      bookingId,
      kind: booking.cancel_reason === 'didnt_come' ? 'no_show_fee' : 'late_cancel_fee',
      amount: settlement.charge,
      provider: checkout.provider,
      providerRef: checkout.provider_ref,
      createdBy: 'system',
      nextAttemptAt: due,
    });
  return settlement;
}

/** More than is left of the charge to refund, or nothing to refund at all. */
export class NothingToRefund extends AppError {
  constructor(left: number) {
    super(
      422,
      'refund_too_large',
      left > 0
        ? `At most ${left} (minor units) can be refunded.`
        : 'Nothing paid through the provider is left to refund.',
      { amount: [left > 0 ? `At most ${left} can be refunded.` : 'Nothing is left to refund.'] },
    );
  }
}

/**
 * A manual refund (full without `amount`, else partial) of what the provider took for a booking:
 * owed to the payment round (sent with its operation id as the idempotency key), bounded by what
 * is left after the refunds already made or owed, recorded in the audit log. The booking's view.
 */
export async function refundBooking(ctx: BookingContext, bookingId: string, amount: number | undefined) {
  const workspaceId = ctx.workspace.id;
  await ctx.uow.run(workspaceId, async (tx) => {
    await lockBooking(tx, workspaceId, bookingId);
    const payments = await providerPaymentsOf(tx, workspaceId, bookingId);
    const charged = payments.find(
      (p) => (p.kind === 'deposit' || p.kind === 'prepayment') && p.status === 'succeeded',
    );
    const checkout = await findCheckoutOperation(tx, workspaceId, bookingId);
    const owed = await owedRefunds(tx, workspaceId, bookingId);
    const refunded = payments
      .filter((p) => p.kind === 'refund' && p.status !== 'failed')
      .reduce((sum, p) => sum + p.amount, 0);
    const paid = charged?.amount ?? 0;
    // A refund owed and not yet answered counts as made: two clicks never refund twice.
    const refundable = refundableAmount(paid, Math.max(refunded, owed), amount);
    if (refundable === undefined || !charged?.reference || !checkout)
      throw new NothingToRefund(Math.max(0, paid - Math.max(refunded, owed)));
    await insertOperation(tx, {
      workspaceId,
      bookingId,
      kind: 'refund',
      amount: refundable,
      provider: checkout.provider,
      providerRef: charged.reference,
      createdBy: ctx.actor.type,
      nextAttemptAt: new Date(ctx.now),
    });
    await recordAudit(tx, workspaceId, ctx.actor, 'booking.refund_requested', bookingId, {
      amount: refundable,
      reference: charged.reference,
    });
  });
  return requireBookingView(ctx.uow.db, workspaceId, bookingId);
}

/** What is left to refund of what the provider took for a booking (0: nothing, or no provider payment). */
export async function refundableOf(db: Db, workspaceId: string, bookingId: string): Promise<number> {
  const payments = await providerPaymentsOf(db, workspaceId, bookingId);
  const charged = payments.find(
    (p) => (p.kind === 'deposit' || p.kind === 'prepayment') && p.status === 'succeeded',
  );
  if (!charged) return 0;
  const refunded = payments
    .filter((p) => p.kind === 'refund' && p.status !== 'failed')
    .reduce((sum, p) => sum + p.amount, 0);
  const owed = await owedRefunds(db, workspaceId, bookingId);
  return Math.max(0, charged.amount - Math.max(refunded, owed));
}
