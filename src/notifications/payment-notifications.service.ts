import { presentBooking } from '../bookings/bookings.presenter.js';
import { findBookingView } from '../bookings/bookings.repository.js';
import type { OutboxEvent } from '../outbox/outbox.repository.js';
import type { MailKind } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { formatMoney } from '../platform/money.js';
import { isUuid } from '../platform/uuid.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import { snapshotOf } from './booking-notifications.service.js';
import { messageKey } from './mail-message.js';
import { insertMessages, type NewMessage } from './mail-queue.repository.js';
import { settingsOf } from './notification-settings.rules.js';
import { bookingLanguages, locationAddresses } from './notifications.repository.js';

/** Which email each payment event makes. */
const KIND_OF: Record<string, MailKind> = {
  'payment-succeeded': 'payment_received',
  'payment-refunded': 'payment_refunded',
  'payment-failed': 'payment_failed',
};

interface PaymentEvent {
  kind: MailKind;
  paymentId: string;
  bookingId: string;
  amount: number;
  at: number;
}

/** What a payment event tells, or undefined when it lacks what the email needs. */
function readPayment(event: OutboxEvent): PaymentEvent | undefined {
  const kind = KIND_OF[event.type];
  const data = (event.payload.data as { payment?: Record<string, unknown> } | undefined)?.payment;
  const at = Date.parse(String(event.payload.timestamp));
  if (!kind || !data || Number.isNaN(at)) return undefined;
  const { uuid, booking_uuid: bookingId, amount } = data;
  if (!isUuid(uuid) || !isUuid(bookingId) || typeof amount !== 'number') return undefined;
  return { kind, paymentId: uuid, bookingId, amount, at };
}

/**
 * The customer's email about each movement of their booking's money (a payment, deposit or fee
 * taken, a refund, a charge that failed), queued in the transaction that dispatches its payment
 * event: an event is dispatched once, so its email is queued once (its key is the payment's).
 * It names the booking as it is now, in the language it was booked in; a customer without an
 * email address gets none.
 */
export async function queuePaymentNotifications(
  tx: Tx,
  workspaceId: string,
  events: OutboxEvent[],
): Promise<void> {
  const payments = events.flatMap((event) => readPayment(event) ?? []);
  if (payments.length === 0) return;
  const workspace = await findWorkspaceById(tx, workspaceId);
  if (!workspace) return;
  const settings = settingsOf(workspace.notification_settings);
  const bookingIds = [...new Set(payments.map((payment) => payment.bookingId))];
  const views = new Map<string, NonNullable<Awaited<ReturnType<typeof findBookingView>>>>();
  for (const id of bookingIds) {
    const view = await findBookingView(tx, workspaceId, id);
    if (view) views.set(id, view);
  }
  const [locations, languages] = await Promise.all([
    locationAddresses(tx, workspaceId, [...new Set([...views.values()].map((view) => view.location_id))]),
    bookingLanguages(tx, workspaceId, bookingIds),
  ]);
  const messages: NewMessage[] = [];
  for (const payment of payments) {
    const view = views.get(payment.bookingId);
    if (!view) continue;
    // The links of the presented booking are not part of the email: no link base is needed.
    const booking = presentBooking(view, workspace, '');
    const recipient = (booking.customer.email ?? '').trim();
    if (recipient === '') continue;
    const snapshot = snapshotOf(booking, workspace, settings, locations.get(view.location_id));
    const language = languages.get(payment.bookingId);
    if (language) snapshot.language = language;
    snapshot.amount = formatMoney(payment.amount, workspace.currency, workspace.locale);
    messages.push({
      bookingId: payment.bookingId,
      kind: payment.kind,
      revision: 0,
      messageKey: messageKey({
        bookingId: payment.bookingId,
        kind: payment.kind,
        revision: 0,
        variant: payment.paymentId,
      }),
      recipient,
      snapshot,
      dueAt: payment.at,
      startsAt: null,
    });
  }
  if (messages.length > 0)
    await insertMessages(tx, workspaceId, messages, Math.max(...payments.map((p) => p.at)));
}
