import { stafferOfMember } from '../calendar-feeds/calendar-feeds.repository.js';
import { busyTimes } from '../calendar-sync/calendar-sync.service.js';
import { bookingsWithOutsideChange } from '../calendar-sync/calendar-writes.repository.js';
import { AppError, notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import { dateToUtcMs, todayIn, utcMsToDate, weekdayOf } from '../platform/time/zone.js';
import type { AvailabilityInvalidation } from '../slots/availability-invalidation.js';
import { BoundedCache } from '../slots/bounded-cache.js';
import type { Schedule } from '../slots/engine/types.js';
import { localDays, mergeSpans, subtractSpans, workingSpans } from '../slots/engine/working-spans.js';
import {
  type CalendarBooking,
  type CalendarLocation,
  type CalendarResource,
  type CalendarStaffer,
  listCalendarBookings,
  listCalendarLocations,
  listCalendarResources,
  listCalendarStaffers,
  listCalendarStatuses,
} from './calendar.repository.js';
import {
  type AxisMode,
  assignLanes,
  bookingsByUnit,
  type CalendarDay,
  calendarDay,
  type HourMark,
  hourMarks,
  type Placed,
  place,
  resourceColumns,
  type Span,
  visibleWindow,
} from './calendar-layout.rules.js';

const DAY_MS = 86_400_000;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export type CalendarView = 'day' | 'week';
/** Columns per staffer (the default), or per resource: a room, a chair (docs/resources.md). */
export type CalendarBy = 'staff' | 'resource';

export interface CalendarQuery {
  location?: string | undefined;
  date?: string | undefined;
  view?: string | undefined;
  /** A staffer's uuid, 'all', or absent (a staff member then sees their own column). */
  staffer?: string | undefined;
  /** 'resource' for the view by resource (a day only); 'staff' or absent for columns per staffer. */
  by?: string | undefined;
}

export interface Shade extends Placed {
  /** busy: outside busy time from the staffer's own calendar (docs/calendar-sync.md). */
  kind: 'work' | 'break' | 'skipped' | 'repeated' | 'busy';
  /** A busy shade's event title, when the staffer shows titles; else it reads "Busy". */
  title?: string | undefined;
}

/** One block on the grid: a booking, or a group session's bookings together. */
export interface Block extends Placed {
  lane: number;
  lanes: number;
  startMs: number;
  endMs: number;
  bookings: { id: string; customer: string; phone: string }[];
  /** Its staffer: the view by resource names them on the block. */
  /** null: a rental, which has no staffer to name. */
  stafferId: string | null;
  services: string;
  /** The units its session holds ('Room 1, Chair 2'); '' for none. */
  resources: string;
  status: { name: string; color: string; type: string };
  completed: boolean;
  seats: { taken: number; capacity: number } | undefined;
  /** Its event was moved or deleted in the staffer's own calendar: Apply or Ignore waits. */
  changedOutside: boolean;
}

/** A column of the grid: a staffer's (view by staffer) or a unit's (view by resource). */
export interface Column {
  staffer: CalendarStaffer | undefined;
  resource: CalendarResource | undefined;
  day: CalendarDay;
  shades: Shade[];
  blocks: Block[];
}

export interface CalendarModel {
  locations: CalendarLocation[];
  location: CalendarLocation;
  view: CalendarView;
  by: CalendarBy;
  /** The location's live units, by type then name: the columns of the view by resource. */
  resources: CalendarResource[];
  /** In the view by resource: the shown bookings that hold no unit, so are in no column. */
  withoutUnits: number;
  /** The view by staffer: rentals of the shown days, which have no staffer column. */
  rentalsElsewhere: number;
  date: string;
  today: string;
  /** All the location's staffers (the picker), and the one shown alone, if any. */
  staffers: CalendarStaffer[];
  staffer: CalendarStaffer | undefined;
  mode: AxisMode;
  window: { from: number; to: number };
  hours: HourMark[];
  days: CalendarDay[];
  /**
   * The columns with their shades and blocks, laid out on first call: a grid already rendered
   * for this version (calendar.routes.tsx) needs none of it.
   */
  layout(): { day: CalendarDay; columns: Column[] }[];
  previous: string;
  next: string;
  bookingCount: number;
}

type FoundBooking = Awaited<ReturnType<typeof listCalendarBookings>>[number];

/**
 * The bookings of a location's day or week, per availability version: every committed write of
 * the workspace (bookings, customers, setup: all go through the unit of work) moves the version
 * on, so an entry serves only while nothing was written. A front desk reloads the same week all
 * day; its 1,000 bookings are the one costly read (~12 ms on the embedded store). Bounded by rows
 * held (~300 bytes each). Statuses and staffers are read fresh each time.
 */
const bookingsCache = new BoundedCache<FoundBooking[]>(100_000, (rows) => rows.length + 1);

async function bookingsOf(
  db: Db,
  availability: AvailabilityInvalidation | undefined,
  args: { workspaceId: string; locationId: string; from: number; to: number },
): Promise<FoundBooking[]> {
  if (!availability) return listCalendarBookings(db, args);
  // The version is read before the rows, so an entry never outlives a write it missed.
  const key = `${args.workspaceId}|${args.locationId}|${args.from}|${args.to}|${await availability.version(args.workspaceId)}`;
  const cached = bookingsCache.get(key);
  if (cached) return cached;
  const rows = await listCalendarBookings(db, args);
  bookingsCache.set(key, rows);
  return rows;
}

/** The calendar of a location for a day or a week (Monday first), read in four statements. */
export async function loadCalendar(
  db: Db,
  args: {
    workspaceId: string;
    userId: string;
    role: string;
    now: number;
    query: CalendarQuery;
    /** Lets the week's bookings be reused until the next write (bookingsOf). */
    availability?: AvailabilityInvalidation;
  },
): Promise<CalendarModel | { empty: true }> {
  const { query } = args;
  const locations = await listCalendarLocations(db, args.workspaceId);
  if (locations.length === 0) return { empty: true };
  const location = query.location ? locations.find((l) => l.id === query.location) : locations[0];
  if (!location) throw notFound('Location');
  const zone = location.timezone;
  if (query.view !== undefined && query.view !== 'day' && query.view !== 'week') {
    throw new AppError(400, 'invalid_view', 'The view must be "day" or "week".');
  }
  if (query.by !== undefined && query.by !== 'staff' && query.by !== 'resource') {
    throw new AppError(400, 'invalid_view', 'The columns must be "staff" or "resource".');
  }
  const by: CalendarBy = query.by === 'resource' ? 'resource' : 'staff';
  // The view by resource is a day's: a week of every room side by side is too wide to read.
  const view: CalendarView = query.view === 'week' && by === 'staff' ? 'week' : 'day';
  const today = todayIn(zone, args.now);
  const date = query.date ?? today;
  if (!DATE_RE.test(date) || !validDate(date)) {
    throw new AppError(400, 'invalid_date', 'The date must be a calendar date as YYYY-MM-DD.');
  }
  const dates = view === 'day' ? [date] : weekOf(date);
  const days = dates.map((d) => calendarDay(zone, d));
  const from = days[0]!.startMs;
  const to = days[days.length - 1]!.endMs;

  let stafferId = query.staffer && query.staffer !== 'all' ? query.staffer : undefined;
  if (query.staffer === undefined && args.role === 'staff') {
    // A staff member sees their own column first; "All staff" shows everyone.
    stafferId = (await stafferOfMember(db, args.workspaceId, args.userId)) ?? undefined;
  }
  const [found, statuses, units] = await Promise.all([
    bookingsOf(db, args.availability, { workspaceId: args.workspaceId, locationId: location.id, from, to }),
    listCalendarStatuses(db, args.workspaceId),
    by === 'resource' ? listCalendarResources(db, args.workspaceId, location.id) : [],
  ]);
  const resources = resourceColumns(units);
  const statusById = new Map(statuses.map((s) => [s.id, s]));
  const bookings: CalendarBooking[] = [];
  for (const booking of found) {
    const status = statusById.get(booking.status_id);
    // Canceled bookings hold no time: the calendar leaves them to the list view.
    if (!status || status.type === 'canceled') continue;
    // Named in place, not spread into a copy: spreads of 1,000 rows cost milliseconds here. A
    // cached row is named again by each request, from the statuses it read.
    const named = booking as CalendarBooking;
    named.status_name = status.name;
    named.status_color = status.color;
    named.status_type = status.type;
    bookings.push(named);
  }
  const staffers = await listCalendarStaffers(db, args.workspaceId, location.id, [
    ...new Set(bookings.flatMap((b) => (b.staffer_id === null ? [] : [b.staffer_id]))),
  ]);
  const staffer = stafferId ? staffers.find((s) => s.id === stafferId) : undefined;
  if (stafferId && !staffer && query.staffer !== undefined) throw notFound('Staffer');
  const shown = staffer ? [staffer] : staffers;
  // By resource, the chosen staffer (or a staff member's own) narrows the blocks, not the columns.
  const staffColumns = by === 'staff' ? shown : [];

  // Outside busy time of the shown staffers (none unless they connected a calendar).
  const busyByStaffer = new Map<string, { start: number; end: number; title: string | null }[]>();
  const busy =
    staffColumns.length === 0
      ? []
      : await busyTimes(
          db,
          args.workspaceId,
          staffColumns.map((s) => s.id),
          from,
          to,
        );
  for (const b of busy) {
    const list = busyByStaffer.get(b.staffer_id) ?? [];
    list.push({ start: Date.parse(b.start_time), end: Date.parse(b.end_time), title: b.title });
    busyByStaffer.set(b.staffer_id, list);
  }

  const mode: AxisMode = view === 'day' ? 'elapsed' : 'wall';
  const spanDays = localDays(utcMsToDate(dateToUtcMs(dates[0]!) - DAY_MS), dates[dates.length - 1]!);
  // By resource too: the shown staffers' hours frame the day (the units have no hours of their own).
  const hoursOf = new Map(shown.map((s) => [s.id, scheduleSpans(s, zone, spanDays)]));
  const opening = workingSpans(
    { weekly: location.opening_hours ?? {}, breaks: {}, overrides: [] },
    zone,
    spanDays,
  );
  const shownIds = new Set(shown.map((s) => s.id));
  // A rental has no staffer (docs/resources.md "Rentals"): the view by resource shows it in its
  // units' columns unless one staffer's bookings are asked for; the view by staffer has no
  // column for it and counts it under the grid instead.
  const rentalsShown = by === 'resource' && staffer === undefined;
  const ofShown = bookings.filter((b) => (b.staffer_id === null ? rentalsShown : shownIds.has(b.staffer_id)));
  const rentalsElsewhere = by === 'staff' ? bookings.filter((b) => b.staffer_id === null).length : 0;
  const byUnit = by === 'resource' ? bookingsByUnit(resources, ofShown) : undefined;
  const inColumns = byUnit ? new Set([...byUnit.values()].flat()) : undefined;
  const visibleBookings = inColumns ? ofShown.filter((b) => inColumns.has(b)) : ofShown;
  const window = visibleWindow(mode, zone, days, [
    ...opening,
    ...[...hoursOf.values()].flatMap((h) => h.scheduled),
    ...visibleBookings.map((b) => ({ start: b.start_ms, end: b.end_ms })),
  ]);

  // Each booking and span is placed only in the day columns it touches (a week of 1,000
  // bookings would otherwise be placed 7 times over, once per day, and dropped 6 times).
  const byStafferDay = new Map<string, CalendarBooking[][]>();
  for (const booking of visibleBookings) {
    if (booking.staffer_id === null) continue;
    let perDay = byStafferDay.get(booking.staffer_id);
    if (!perDay) {
      perDay = days.map(() => []);
      byStafferDay.set(booking.staffer_id, perDay);
    }
    days.forEach((day, i) => {
      if (booking.start_ms < day.endMs && booking.end_ms > day.startMs) perDay[i]!.push(booking);
    });
  }
  // Bookings whose event was edited in the staffer's own calendar (docs/calendar-sync.md).
  const changedOutside = await bookingsWithOutsideChange(db, args.workspaceId);
  const layOut = (): { day: CalendarDay; columns: Column[] }[] =>
    days.map((day, i) => ({
      day,
      columns: byUnit
        ? resources.map((unit) => ({
            staffer: undefined,
            resource: unit,
            day,
            // The location's opening hours light the column, as a staffer's working time does.
            shades: placeAll(mode, zone, day, window, opening, 'work'),
            blocks: blocksOf(
              mode,
              zone,
              day,
              window,
              (byUnit.get(unit.id) ?? []).filter((b) => b.start_ms < day.endMs && b.end_ms > day.startMs),
              changedOutside,
            ),
          }))
        : staffColumns.map((s) => {
            const hours = hoursOf.get(s.id)!;
            const shades: Shade[] = [
              ...placeAll(mode, zone, day, window, hours.working, 'work'),
              ...placeAll(mode, zone, day, window, hours.breaks, 'break'),
              ...clockChangeShades(mode, day, window),
              ...busyShades(mode, zone, day, window, busyByStaffer.get(s.id) ?? []),
            ];
            return {
              staffer: s,
              resource: undefined,
              day,
              shades,
              blocks: blocksOf(mode, zone, day, window, byStafferDay.get(s.id)?.[i] ?? [], changedOutside),
            };
          }),
    }));

  let groups: ReturnType<typeof layOut> | undefined;
  const step = view === 'day' ? 1 : 7;
  return {
    locations,
    location,
    view,
    by,
    resources,
    withoutUnits: ofShown.length - visibleBookings.length,
    rentalsElsewhere,
    date,
    today,
    staffers,
    staffer,
    mode,
    window,
    hours: hourMarks(mode, zone, days[0]!, window.from, window.to),
    days,
    layout: () => {
      groups ??= layOut();
      return groups;
    },
    previous: shiftDate(date, -step),
    next: shiftDate(date, step),
    bookingCount: visibleBookings.length,
  };
}

function validDate(date: string): boolean {
  try {
    dateToUtcMs(date);
    return true;
  } catch {
    return false;
  }
}

function shiftDate(date: string, days: number): string {
  return utcMsToDate(dateToUtcMs(date) + days * DAY_MS);
}

/** The seven dates of the Monday-first week holding `date`. */
export function weekOf(date: string): string[] {
  const index = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].indexOf(weekdayOf(date));
  const monday = dateToUtcMs(date) - index * DAY_MS;
  return Array.from({ length: 7 }, (_, i) => utcMsToDate(monday + i * DAY_MS));
}

/** Working time (breaks cut out), the breaks themselves, and the scheduled hours around both. */
function scheduleSpans(
  staffer: CalendarStaffer,
  zone: string,
  days: ReturnType<typeof localDays>,
): { working: Span[]; breaks: Span[]; scheduled: Span[] } {
  if (!staffer.weekly) return { working: [], breaks: [], scheduled: [] };
  const schedule: Schedule = {
    weekly: staffer.weekly,
    breaks: staffer.breaks ?? {},
    overrides: staffer.overrides ?? [],
  };
  const working = workingSpans(schedule, zone, days);
  const scheduled = workingSpans(
    {
      weekly: schedule.weekly,
      breaks: {},
      overrides: schedule.overrides.map((o) => ({ date: o.date, intervals: o.intervals })),
    },
    zone,
    days,
  );
  return { working, breaks: subtractSpans(mergeSpans(scheduled), working), scheduled };
}

function placeAll(
  mode: AxisMode,
  zone: string,
  day: CalendarDay,
  window: { from: number; to: number },
  spans: Span[],
  kind: Shade['kind'],
): Shade[] {
  const out: Shade[] = [];
  for (const span of spans) {
    if (span.end <= day.startMs || span.start >= day.endMs) continue;
    const placed = place(mode, zone, day, window, span);
    if (placed) out.push({ ...placed, kind });
  }
  return out;
}

/** Outside busy blocks of one column, titled when the staffer shows titles. */
function busyShades(
  mode: AxisMode,
  zone: string,
  day: CalendarDay,
  window: { from: number; to: number },
  busy: { start: number; end: number; title: string | null }[],
): Shade[] {
  const out: Shade[] = [];
  for (const b of busy) {
    if (b.end <= day.startMs || b.start >= day.endMs) continue;
    const placed = place(mode, zone, day, window, { start: b.start, end: b.end });
    if (placed) out.push({ ...placed, kind: 'busy', title: b.title ?? undefined });
  }
  return out;
}

/** On the wall axis the skipped or repeated hour of a DST day is a band of its own. */
function clockChangeShades(mode: AxisMode, day: CalendarDay, window: { from: number; to: number }): Shade[] {
  if (mode !== 'wall' || !day.change) return [];
  const top = Math.max(day.change.wallFrom, window.from);
  const bottom = Math.min(day.change.wallTo, window.to);
  if (bottom <= top) return [];
  return [
    {
      top: top - window.from,
      height: bottom - top,
      kind: day.change.shiftMinutes > 0 ? 'skipped' : 'repeated',
    },
  ];
}

function blocksOf(
  mode: AxisMode,
  zone: string,
  day: CalendarDay,
  window: { from: number; to: number },
  bookings: CalendarBooking[],
  changedOutside: ReadonlySet<string>,
): Block[] {
  // The bookings of one group session are one block: seats taken out of capacity.
  const sessions = new Map<string, CalendarBooking[]>();
  const singles: CalendarBooking[][] = [];
  for (const booking of bookings) {
    if (booking.occupancy_id && (booking.capacity ?? 1) > 1) {
      const session = sessions.get(booking.occupancy_id);
      if (session) session.push(booking);
      else sessions.set(booking.occupancy_id, [booking]);
    } else singles.push([booking]);
  }
  const placed: Block[] = [];
  for (const group of [...singles, ...sessions.values()]) {
    const first = group[0]!;
    const at = place(mode, zone, day, window, { start: first.start_ms, end: first.end_ms });
    if (!at) continue;
    // Built field by field: object spreads here cost ~10x more (V8's slow clone path), and
    // this runs once per booking of the week.
    const block: Block = {
      top: at.top,
      height: at.height,
      lane: 0,
      lanes: 1,
      startMs: first.start_ms,
      endMs: first.end_ms,
      bookings: group.map((b) => ({
        id: b.id,
        customer: `${b.customer_first_name} ${b.customer_last_name}`.trim() || b.customer_phone,
        phone: b.customer_phone,
      })),
      stafferId: first.staffer_id,
      services: first.services,
      resources: first.resources,
      status: { name: first.status_name, color: first.status_color, type: first.status_type },
      completed: group.every((b) => b.completed),
      seats:
        (first.capacity ?? 1) > 1
          ? { taken: first.seats_taken ?? group.length, capacity: first.capacity! }
          : undefined,
      changedOutside: changedOutside.size > 0 && group.some((b) => changedOutside.has(b.id)),
    };
    placed.push(block);
  }
  return assignLanes(placed);
}
