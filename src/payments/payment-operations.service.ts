import { lockBooking } from '../bookings/bookings.repository.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { type PaymentConfig, workspaceProvider } from './payment-providers.service.js';
import { paymentSettingsOf } from './payment-settings.rules.js';
import {
  claimDueOperations,
  findPaymentConfig,
  finishOperation,
  onlineAccountOf,
  type PaymentOperationRow,
} from './payments.repository.js';
import { applyCheckout, landPayment, PROVIDER_ACCOUNT_NAME } from './payments.service.js';
import { ProviderUnavailable } from './providers/payment-provider.js';

/** How long a claimed operation is ours: past it, a worker that died mid-call is replaced. */
export const OPERATION_CLAIM_MS = 2 * 60_000;
const MAX_ATTEMPTS = 8;

/** Minutes before the next attempt after `attempts` failed ones: 1, 2, 4 … 64. */
export const retryDelayMs = (attempts: number) => 60_000 * 2 ** Math.min(attempts, 6);

/**
 * Sends the owed provider calls that are due (refunds, fees, checkout expiries), each with its
 * operation id as the Idempotency-Key: an operation claimed again after its worker died mid-call
 * (its claim ran out while it was `sending`) is sent again with the same key, and the provider
 * answers with what it did the first time, so nothing is charged or refunded twice. The result
 * lands as the payment row of its provider reference (unique), so the webhook that tells of the
 * same refund or charge, before or after, lands once with it. Returns how many were attempted.
 */
export async function attemptDueOperations(
  db: Db,
  uow: UnitOfWork,
  config: PaymentConfig,
  now: number,
  limit = 20,
): Promise<number> {
  const operations = await claimDueOperations(db, new Date(now), new Date(now + OPERATION_CLAIM_MS), limit);
  for (const operation of operations) await attemptOperation(db, uow, config, operation, now);
  return operations.length;
}

async function attemptOperation(
  db: Db,
  uow: UnitOfWork,
  config: PaymentConfig,
  operation: PaymentOperationRow,
  now: number,
): Promise<void> {
  const { workspace_id: workspaceId, id, booking_id: bookingId } = operation;
  const row = await findPaymentConfig(db, workspaceId);
  const provider = row
    ? workspaceProvider(config, workspaceId, paymentSettingsOf(row.payment_settings), row.payment_credentials)
    : undefined;
  if (!provider || !row) {
    await finishOperation(db, workspaceId, id, {
      state: 'failed',
      response: 'no payment provider connected',
    });
    return;
  }
  const metadata = { workspace_id: workspaceId, booking_id: bookingId, operation_id: id };
  const record = (
    reference: string,
    kind: 'refund' | 'late_cancel_fee' | 'no_show_fee',
    amount: number,
    status: 'pending' | 'succeeded' | 'failed',
  ) =>
    uow.run(workspaceId, async (tx) => {
      const booking = await lockBooking(tx, workspaceId, bookingId);
      await landPayment(
        tx,
        {
          workspaceId,
          bookingId,
          accountId: await onlineAccountOf(tx, workspaceId, booking.location_id, PROVIDER_ACCOUNT_NAME),
          provider: provider.name,
          reference,
          kind,
          amount,
          status,
        },
        now,
      );
    });
  try {
    switch (operation.kind) {
      case 'expire_checkout': {
        const checkout = await provider.expireCheckout(operation.provider_ref ?? '');
        // Paid in the last second before the expiry: recorded, and refunded (the hold is gone).
        if (checkout.status === 'complete')
          await uow.run(workspaceId, (tx) => applyCheckout(tx, workspaceId, provider.name, checkout, now));
        await finishOperation(db, workspaceId, id, {
          state: 'done',
          response: `checkout ${checkout.id} ${checkout.status}`,
        });
        return;
      }
      case 'refund': {
        const refund = await provider.refund({
          paymentRef: operation.provider_ref ?? '',
          amount: operation.amount,
          metadata,
          idempotencyKey: id,
        });
        await record(refund.ref, 'refund', refund.amount, refund.status);
        await finishOperation(db, workspaceId, id, {
          state: 'done',
          response: `refund ${refund.ref} ${refund.status}`,
        });
        return;
      }
      case 'late_cancel_fee':
      case 'no_show_fee': {
        const checkout = await provider.retrieveCheckout(operation.provider_ref ?? '');
        if (!checkout.card) {
          await finishOperation(db, workspaceId, id, { state: 'failed', response: 'no card kept on file' });
          return;
        }
        const charge = await provider.chargeCard({
          ...checkout.card,
          amount: operation.amount,
          currency: row.currency,
          description: operation.kind === 'no_show_fee' ? 'No-show fee' : 'Late cancellation fee',
          metadata,
          idempotencyKey: id,
        });
        await record(
          charge.ref,
          operation.kind,
          charge.amount,
          charge.status === 'processing' ? 'pending' : charge.status,
        );
        await finishOperation(db, workspaceId, id, {
          state: charge.status === 'failed' ? 'failed' : 'done',
          response: `charge ${charge.ref} ${charge.status}`,
        });
        return;
      }
      default:
        await finishOperation(db, workspaceId, id, {
          state: 'failed',
          response: `not an owed call: ${operation.kind}`,
        });
    }
  } catch (error) {
    const again = error instanceof ProviderUnavailable && operation.attempt_count + 1 < MAX_ATTEMPTS;
    await finishOperation(db, workspaceId, id, {
      state: again ? 'pending' : 'failed',
      response: (error as Error).message,
      ...(again ? { retryAt: new Date(now + retryDelayMs(operation.attempt_count)) } : {}),
    });
  }
}
