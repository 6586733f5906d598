import { cancelBooking, moveBooking } from '../bookings/booking-changes.service.js';
import type { BookingContext } from '../bookings/bookings.service.js';
import { liveStafferName } from '../calendar-feeds/calendar-feeds.repository.js';
import { AppError } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { UnitOfWork } from '../platform/db/unit-of-work.js';
import { toUtcIso } from '../platform/time/zone.js';
import { clearOutsideChange, findOutsideChange, queueRewrite } from './calendar-writes.repository.js';

/**
 * Edits read back (docs/calendar-sync.md): what the sync recorded when a booking's event was moved
 * or deleted in the staffer's own calendar, and the two answers the panel gives. Nothing here
 * changes a booking by itself: Apply goes through the normal reschedule or cancel (the database
 * still decides, a taken time is the normal conflict), Ignore writes the event again as the
 * booking has it through the write path.
 */

export interface OutsideChangeView {
  kind: 'moved' | 'deleted';
  /** The event's new start and end (moved); null when deleted. */
  start: number | null;
  end: number | null;
  /** Whose calendar it is ("Anna Adler"); '' when that staffer is archived. */
  stafferName: string;
}

export async function outsideChangeOfBooking(
  db: Db,
  workspaceId: string,
  bookingId: string,
): Promise<OutsideChangeView | null> {
  const row = await findOutsideChange(db, workspaceId, bookingId);
  if (!row) return null;
  return {
    kind: row.outside_change,
    start: row.outside_start ? new Date(row.outside_start).getTime() : null,
    end: row.outside_end ? new Date(row.outside_end).getTime() : null,
    stafferName: (await liveStafferName(db, workspaceId, row.staffer_id)) ?? '',
  };
}

const nothingWaits = () =>
  new AppError(409, 'no_outside_change', 'Nothing changed in the calendar waits on this booking.');

/**
 * Apply: the booking follows its calendar. Moved: the normal reschedule to the event's new start
 * (the booking keeps its duration); deleted: the normal cancel. The write that follows the change
 * puts the calendar's event in step and clears what waited.
 */
export async function applyOutsideChange(
  ctx: BookingContext,
  bookingId: string,
): Promise<'moved' | 'canceled'> {
  const change = await findOutsideChange(ctx.db, ctx.workspace.id, bookingId);
  if (!change) throw nothingWaits();
  if (change.outside_change === 'moved') {
    if (!change.outside_start) throw nothingWaits();
    await moveBooking(ctx, bookingId, toUtcIso(new Date(change.outside_start).getTime()), undefined);
    await ctx.uow.run(ctx.workspace.id, (tx) => clearOutsideChange(tx, ctx.workspace.id, bookingId));
    return 'moved';
  }
  await cancelBooking(ctx, bookingId, 'canceled');
  await ctx.uow.run(ctx.workspace.id, (tx) => clearOutsideChange(tx, ctx.workspace.id, bookingId));
  return 'canceled';
}

/** Ignore: the booking stays; its event is written again as the booking has it, and the notice goes. */
export async function ignoreOutsideChange(
  uow: UnitOfWork,
  db: Db,
  workspaceId: string,
  bookingId: string,
  now: number,
): Promise<void> {
  const change = await findOutsideChange(db, workspaceId, bookingId);
  if (!change) throw nothingWaits();
  await uow.run(workspaceId, async (tx) => {
    await queueRewrite(tx, workspaceId, bookingId, change.revision, new Date(now));
    await clearOutsideChange(tx, workspaceId, bookingId);
  });
}
