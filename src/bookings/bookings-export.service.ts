import { toCsv } from '../platform/csv.js';
import type { Db } from '../platform/db/client.js';
import { moneyInputValue } from '../platform/money.js';
import { localMsOf, toUtcIso } from '../platform/time/zone.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { netPaid } from './booking-money.rules.js';
import { type BookingFilters, listBookingViews, locationNamesOf } from './bookings.repository.js';

const PAGE = 1000;

/** "2026-09-10 14:00": a wall time as a spreadsheet reads it, in the booking's location zone. */
const wall = (epochMs: number, zone: string) =>
  new Date(localMsOf(epochMs, zone)).toISOString().slice(0, 16).replace('T', ' ');

/**
 * The workspace's bookings (optionally within `reserved_on_from`/`_to`) as CSV, oldest first.
 * The first columns are the booking import's (src/imports/): a future booking exported from one
 * workspace imports into another. Amounts in major units of the currency (25.00), as spreadsheets
 * sum them.
 */
export async function bookingsCsv(
  db: Db,
  workspace: WorkspaceRow,
  filters: Pick<BookingFilters, 'reserved_on_from' | 'reserved_on_to'>,
): Promise<string> {
  const rows: unknown[][] = [];
  const money = (minor: number) => moneyInputValue(minor, workspace.currency);
  for (let offset = 0; ; offset += PAGE) {
    const page = await listBookingViews(db, workspace.id, filters, { perPage: PAGE, offset }, 'oldest-first');
    const locations = await locationNamesOf(
      db,
      workspace.id,
      page.rows.map((view) => view.location_id),
    );
    for (const view of page.rows) {
      const start = new Date(view.start_time).getTime();
      const total = view.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
      const paid = netPaid(view.payments);
      rows.push([
        wall(start, view.timezone),
        locations.get(view.location_id) ?? '',
        view.lines.map((line) => line.name).join(' + '),
        `${view.staffer_first_name ?? ''} ${view.staffer_last_name ?? ''}`.trim(),
        view.customer_phone,
        view.customer_first_name,
        view.customer_last_name,
        view.customer_email,
        view.booking_comment,
        wall(new Date(view.end_time).getTime(), view.timezone),
        view.timezone,
        view.status_name,
        view.cancel_reason ?? '',
        money(total),
        money(paid),
        workspace.currency,
        view.source,
        view.id,
        toUtcIso(new Date(view.created_at).getTime()),
      ]);
    }
    if (page.rows.length < PAGE) break;
  }
  return toCsv(
    [
      'start',
      'location',
      'services',
      'staffer',
      'customer_phone',
      'customer_first_name',
      'customer_last_name',
      'customer_email',
      'booking_comment',
      'end',
      'timezone',
      'status',
      'cancel_reason',
      'total',
      'paid',
      'currency',
      'source',
      'uuid',
      'created_at',
    ],
    rows,
  );
}
