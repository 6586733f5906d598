import { type BookingView, viewQuery } from '../bookings/bookings.repository.js';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';

/**
 * An order is the money side of one booking: it has its own uuid (`order_id` of the
 * booking row), so it is read through the booking's view.
 */
export async function requireOrderView(db: Db, workspaceId: string, orderId: string): Promise<BookingView> {
  const view = (await viewQuery(db, workspaceId).where('b.order_id', '=', orderId).executeTakeFirst()) as
    | BookingView
    | undefined;
  if (!view) throw notFound('Order');
  return view;
}
