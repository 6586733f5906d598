import type { Db } from '../platform/db/client.js';
import { type HistoryRow, listHistory } from './booking-history.repository.js';
import {
  type BookingFilters,
  type BookingView,
  listBookingViews,
  locationNamesOf,
  requireBookingView,
} from './bookings.repository.js';

/** A booking of the workspace as its page shows it; a 404 for another workspace's or none. */
export function getBookingView(db: Db, workspaceId: string, bookingId: string): Promise<BookingView> {
  return requireBookingView(db, workspaceId, bookingId);
}

/** A booking's history, oldest change first. */
export function bookingHistory(db: Db, workspaceId: string, bookingId: string): Promise<HistoryRow[]> {
  return listHistory(db, workspaceId, bookingId);
}

/**
 * One page of the bookings `filters` match, oldest first (the order GET /bookings lists them
 * in), with their total and the names of their locations.
 */
export async function listBookingsPage(
  db: Db,
  workspaceId: string,
  filters: BookingFilters,
  page: { perPage: number; offset: number },
): Promise<{ rows: BookingView[]; total: number; locationNames: Map<string, string> }> {
  const { rows, total } = await listBookingViews(db, workspaceId, filters, page);
  const locationNames = await locationNamesOf(
    db,
    workspaceId,
    rows.map((row) => row.location_id),
  );
  return { rows, total, locationNames };
}
