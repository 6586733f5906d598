import { formatMoney } from '../platform/money.js';
import { presentDuration } from '../platform/time/duration.js';
import { formatLocalIso, toUtcIso } from '../platform/time/zone.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import type { HistoryRow } from './booking-history.repository.js';
import { bookingLinks, bookingPolicy, manageLinkOf } from './booking-links.js';
import { netPaid } from './booking-money.rules.js';
import type { BookingView, PublicNoteRow } from './bookings.repository.js';

/**
 * A booking as the API answers it. `*_local` fields are in the location's zone. `linkBase` is the
 * base of the customer's absolute links (AppDeps.linkBase, src/config.ts publicBaseUrl).
 */
export function presentBooking(view: BookingView, workspace: WorkspaceRow, linkBase: string) {
  const start = new Date(view.start_time).getTime();
  const end = new Date(view.end_time).getTime();
  const { currency, locale } = workspace;
  const publicNotes = [view.booking_comment, ...view.notes].filter((note) => note !== '').join('\n');
  const money = moneyFormatter(currency, locale);
  // Each line starts where the one before it ends (order lines follow each other).
  let lineStart = start;
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
    // null: a rental (docs/resources.md "Rentals"), or a staffer's name no longer readable.
    staffer:
      view.staffer_id === null || view.staffer_first_name === null
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
    ordered_services: view.lines.map((line) => {
      const lineEnd = lineStart + line.duration_minutes * 60_000;
      const json = {
        uuid: line.id,
        service_uuid: line.service_id,
        name: line.name,
        description: line.description ?? '',
        quantity: line.quantity,
        price: line.price,
        price_formatted: money(line.price),
        original_price: line.original_price,
        original_price_formatted: money(line.original_price),
        discount: line.discount,
        discount_formatted: money(line.discount),
        currency,
        duration: presentDuration(line.duration_minutes),
        // The line's length when it was booked; lines have no length of their own yet.
        original_duration: presentDuration(line.duration_minutes),
        reserved_on: toUtcIso(lineStart),
        reserved_until: toUtcIso(lineEnd),
        timezone: view.timezone,
      };
      lineStart = lineEnd;
      return json;
    }),
    resources: view.resources ?? [],
    order: presentOrder(view, workspace, money),
    booking_comment: view.booking_comment,
    public_notes: publicNotes,
    booking_callback: view.booking_callback,
    source: view.source,
    links: [
      ...bookingLinks(manageLinkOf(workspace, view.id, linkBase)),
      ...(view.payment_url ? [{ type: 'payment' as const, link: view.payment_url }] : []),
    ],
    ...(view.payment_state
      ? {
          payment: {
            state: view.payment_state,
            hold_until: view.payment_hold_until
              ? toUtcIso(new Date(view.payment_hold_until).getTime())
              : null,
          },
        }
      : {}),
    // Only on an occurrence of a series (docs/series.md): other bookings answer as before.
    ...(view.series_id ? { series_uuid: view.series_id } : {}),
    policy: bookingPolicy(workspace, start),
    created_at: toUtcIso(new Date(view.created_at).getTime()),
    updated_at: toUtcIso(new Date(view.updated_at).getTime()),
  };
}

/** The money side of a booking (the booking's `order`); `tax` stays 0 until taxes exist. */
export function presentOrder(
  view: BookingView,
  workspace: WorkspaceRow,
  money = moneyFormatter(workspace.currency, workspace.locale),
) {
  const { currency } = workspace;
  const subtotal = view.lines.reduce((sum, line) => sum + line.original_price * line.quantity, 0);
  const total = view.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
  const amountPaid = netPaid(view.payments);
  const tax = 0;
  return {
    uuid: view.order_id,
    currency,
    subtotal,
    subtotal_formatted: money(subtotal),
    tax,
    tax_formatted: money(tax),
    total,
    total_formatted: money(total),
    amount_paid: amountPaid,
    amount_paid_formatted: money(amountPaid),
    payments: view.payments.map((payment) => ({
      uuid: payment.id,
      account_uuid: payment.payment_account_id,
      amount: payment.amount,
      provider: payment.provider,
      reference: payment.reference,
      kind: payment.kind,
      status: payment.status,
      created_at: toUtcIso(new Date(payment.created_at).getTime()),
    })),
  };
}

/**
 * formatMoney with a memo for one booking: its amounts repeat (price = original price = total,
 * discount = tax = 0), and each Intl format call costs microseconds on the create path.
 */
function moneyFormatter(currency: string, locale: string): (minor: number) => string {
  const done = new Map<number, string>();
  return (minor) => {
    let text = done.get(minor);
    if (text === undefined) {
      text = formatMoney(minor, currency, locale);
      done.set(minor, text);
    }
    return text;
  };
}

export type BookingJson = ReturnType<typeof presentBooking>;

/** One entry of GET /bookings/{uuid}/history. */
export function presentHistoryEntry(row: HistoryRow) {
  return {
    uuid: row.id,
    action: row.action,
    changes: row.changes,
    actor: { type: row.actor_type, uuid: row.actor_id },
    created_at: toUtcIso(row.created_at.getTime()),
  };
}

/** One public note (GET and POST /bookings/{uuid}/public_notes). */
export function presentPublicNote(note: PublicNoteRow) {
  return { uuid: note.id, value: note.value, created_at: toUtcIso(note.created_at.getTime()) };
}
