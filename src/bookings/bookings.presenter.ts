import { formatMoney } from '../money.js';
import { presentDuration } from '../time/duration.js';
import { formatLocalIso, toUtcIso } from '../time/zone.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import type { BookingView } from './bookings.repository.js';

/** DESIGN §3 "Booking". `*_local` fields are in the location's zone. */
export function presentBooking(view: BookingView, workspace: WorkspaceRow) {
  const start = new Date(view.start_time).getTime();
  const end = new Date(view.end_time).getTime();
  const { currency, locale } = workspace;
  const subtotal = view.lines.reduce((sum, line) => sum + line.original_price * line.quantity, 0);
  const total = view.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
  const amountPaid = view.payments.reduce((sum, payment) => sum + payment.amount, 0);
  const publicNotes = [view.booking_comment, ...view.notes].filter((note) => note !== '').join('\n');
  return {
    uuid: view.id,
    location_uuid: view.location_id,
    start_time: toUtcIso(start),
    start_time_local: formatLocalIso(start, view.timezone),
    end_time: toUtcIso(end),
    end_time_local: formatLocalIso(end, view.timezone),
    timezone: view.timezone,
    duration: presentDuration(Math.round((end - start) / 60_000)),
    quantity: view.quantity,
    status: { uuid: view.status_id, name: view.status_name, type: view.status_type },
    is_canceled: view.status_type === 'canceled',
    is_completed: view.status_type === 'completed',
    cancel_reason: view.cancel_reason,
    staffer:
      view.staffer_first_name === null
        ? null
        : {
            uuid: view.staffer_id,
            first_name: view.staffer_first_name,
            last_name: view.staffer_last_name ?? '',
          },
    customer: {
      uuid: view.customer_id,
      phone: view.customer_phone,
      first_name: view.customer_first_name,
      last_name: view.customer_last_name,
      email: view.customer_email,
    },
    ordered_services: view.lines.map((line) => ({
      uuid: line.id,
      service_uuid: line.service_id,
      name: line.name,
      quantity: line.quantity,
      price: line.price,
      original_price: line.original_price,
      discount: line.discount,
      currency,
      duration: presentDuration(line.duration_minutes),
    })),
    order: {
      uuid: view.order_id,
      currency,
      subtotal,
      subtotal_formatted: formatMoney(subtotal, currency, locale),
      total,
      total_formatted: formatMoney(total, currency, locale),
      amount_paid: amountPaid,
      amount_paid_formatted: formatMoney(amountPaid, currency, locale),
      payments: view.payments.map((payment) => ({
        uuid: payment.id,
        account_uuid: payment.payment_account_id,
        amount: payment.amount,
        created_at: toUtcIso(new Date(payment.created_at).getTime()),
      })),
    },
    booking_comment: view.booking_comment,
    public_notes: publicNotes,
    booking_callback: view.booking_callback,
    source: view.source,
    created_at: toUtcIso(new Date(view.created_at).getTime()),
    updated_at: toUtcIso(new Date(view.updated_at).getTime()),
  };
}

export type BookingJson = ReturnType<typeof presentBooking>;
