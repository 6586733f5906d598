import { stafferOfMember } from '../calendar-feeds/calendar-feeds.repository.js';
import type { Db } from '../platform/db/client.js';
import { todayIn } from '../platform/time/zone.js';
import { type AgendaRow, listAgendaBookings } from './agenda.repository.js';
import { calendarDay } from './calendar-layout.rules.js';

const DAY_MS = 86_400_000;

export interface AgendaLocation {
  locationId: string;
  locationName: string;
  timezone: string;
  /** Today in the location's zone, YYYY-MM-DD. */
  date: string;
  bookings: (AgendaRow & { own: boolean })[];
}

export interface Agenda {
  locations: AgendaLocation[];
  /** The staffer the member is, if any: their own bookings come first. */
  ownStafferId: string | null;
}

/**
 * Today's bookings per location, "today" in each location's own zone (a chain in Berlin and New
 * York has two todays at most hours). A member who is a staffer sees their own bookings first,
 * then everyone else's; each part in start order.
 */
export async function todaysAgenda(
  db: Db,
  args: { workspaceId: string; userId: string; now: number },
): Promise<Agenda> {
  // Every zone's today lies within a day and a half of now (offsets run from -12 to +14 hours).
  const [rows, ownStafferId] = await Promise.all([
    listAgendaBookings(db, {
      workspaceId: args.workspaceId,
      from: args.now - 2 * DAY_MS,
      to: args.now + 2 * DAY_MS,
    }),
    stafferOfMember(db, args.workspaceId, args.userId),
  ]);
  return { locations: agendaOf(rows, args.now, ownStafferId), ownStafferId };
}

/** Groups rows by location and keeps those of the location's today (pure, for tests). */
export function agendaOf(rows: AgendaRow[], now: number, ownStafferId: string | null): AgendaLocation[] {
  const byLocation = new Map<string, AgendaLocation & { startMs: number; endMs: number }>();
  for (const row of rows) {
    let entry = byLocation.get(row.location_id);
    if (!entry) {
      const day = calendarDay(row.timezone, todayIn(row.timezone, now));
      entry = {
        locationId: row.location_id,
        locationName: row.location_name,
        timezone: row.timezone,
        date: day.date,
        bookings: [],
        startMs: day.startMs,
        endMs: day.endMs,
      };
      byLocation.set(row.location_id, entry);
    }
    if (row.start_ms >= entry.startMs && row.start_ms < entry.endMs) {
      entry.bookings.push({ ...row, own: ownStafferId !== null && row.staffer_id === ownStafferId });
    }
  }
  return [...byLocation.values()]
    .filter((entry) => entry.bookings.length > 0)
    .map(({ startMs: _s, endMs: _e, ...entry }) => ({
      ...entry,
      // A stable sort: own bookings first, each part still in start order.
      bookings: [...entry.bookings].sort((a, b) => Number(b.own) - Number(a.own)),
    }))
    .sort((a, b) => a.locationName.localeCompare(b.locationName) || a.locationId.localeCompare(b.locationId));
}
