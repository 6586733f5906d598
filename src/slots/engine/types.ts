/**
 * Input and output types of the pure slot engine (compute-slots.ts). The wire names of Slot,
 * FreeInterval and SlotDay follow the public API's time-slot response; start_time is our addition (UTC).
 */

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

/** 'HH:MM' local wall time; `to` may be '24:00'; to <= from means the range crosses midnight. */
export interface TimeRange {
  from: string;
  to: string;
}

export interface Schedule {
  /** Several intervals per weekday. */
  weekly: Partial<Record<Weekday, TimeRange[]>>;
  /** Subtracted from working time on those weekdays. */
  breaks: Partial<Record<Weekday, TimeRange[]>>;
  /** Replaces that date's weekly rule and breaks; intervals [] = day off. */
  overrides: { date: string; intervals: TimeRange[]; breaks?: TimeRange[] }[];
}

/** An existing booking (or group session) of a staffer. */
export interface Occupancy {
  /** Occupied span in epoch ms, INCLUDING its buffers (half-open [start, end)). */
  start: number;
  end: number;
  serviceId: string;
  /** The service start instant (epoch ms). */
  serviceStart: number;
  seatsTaken: number;
  /** capacity > 1 = group session others may join. */
  capacity: number;
}

/** Outside busy time of a staffer (their own calendar, src/calendar-sync): epoch ms, half-open. */
export interface BusySpan {
  start: number;
  end: number;
}

export interface StafferInput {
  stafferId: string;
  schedule: Schedule;
  occupancies: Occupancy[];
  /**
   * Outside busy time: blocks like an occupancy of one seat (the new booking's buffers kept clear
   * of it too), never joinable. Absent = none.
   */
  busy?: BusySpan[] | undefined;
}

export interface ServiceInput {
  id: string;
  durationMinutes: number;
  capacity: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  priceMinor: number;
}

export interface SlotRules {
  slotStepMinutes: number;
  minNoticeMinutes: number;
  horizonDays: number;
}

/** One unit of a location (a room, a chair) and the spans other sessions hold it, epoch ms, half-open. */
export interface ResourceUnitInput {
  resourceId: string;
  busy: BusySpan[];
}

/** A requirement of the service: `units` of the units in `pool` (a named unit: a pool of one). */
export interface ResourceNeedInput {
  units: number;
  pool: ResourceUnitInput[];
}

export interface AvailabilityInput {
  /** Schedules are wall times in this zone; the slot grid is in this zone. */
  locationZone: string;
  service: ServiceInput;
  rules: SlotRules;
  /** Eligible staffers only, in a stable order. */
  staffers: StafferInput[];
  /**
   * What a new session of the service needs besides its staffer (docs/resources.md): each need's
   * units free for the whole span, buffers included. Joining a group session needs none (the
   * session holds them already). Absent or [] = nothing.
   */
  resources?: ResourceNeedInput[] | undefined;
  /**
   * A service needing no staffer (a rental: a court, a sauna; docs/resources.md "Rentals"): the
   * location's opening hours stand where a staffer's schedule would, `staffers` is not read, and
   * every booking is a session of its own that needs its units free for the whole span. Without
   * `resources` nothing is bookable. Absent = a service booked with a staffer.
   */
  rental?: { openingHours: Schedule } | undefined;
  /** Epoch ms (injected clock). */
  now: number;
}

/** Dates are in answerZone, inclusive. */
export interface SlotQuery extends AvailabilityInput {
  answerZone: string;
  /** The service's price as each slot shows it, formatted by the caller: the engine formats no money. */
  priceFormatted: string;
  rangeStart: string;
  rangeEnd: string;
}

/**
 * `start`/`end`: wall clocks ('HH:MM') in force at the two instants; `*_formatted`: the same wall
 * clocks in seconds since the midnight of the slot's date (an end on the next date adds 86400).
 * Wall clocks repeat in a fall-back hour, so there `end_formatted` can be <= `start_formatted`
 * (docs/decisions/0002); `start_time`/`end_time` (UTC) and `start_offset`/`end_offset` ('+02:00')
 * always tell the instants apart.
 */
export interface Slot {
  start: string;
  start_formatted: number;
  end: string;
  end_formatted: number;
  quantity: number;
  price: number;
  price_formatted: string;
  start_time: string;
  end_time: string;
  start_offset: string;
  end_offset: string;
}

/** Same time fields and rules as Slot. */
export interface FreeInterval {
  start: string;
  start_formatted: number;
  end: string;
  end_formatted: number;
  start_time: string;
  end_time: string;
  start_offset: string;
  end_offset: string;
}

export interface SlotDay {
  date: string;
  slots: Slot[];
  intervals: FreeInterval[];
}

export type BookableResult =
  | {
      ok: true;
      /** [] for a rental: no staffer is asked. */
      staffers: { stafferId: string; freeSeats: number }[];
      /** Per need (same order as the input's), the free units in pool order: those to try. */
      units?: string[][];
    }
  | { ok: false; reason: 'not_on_grid' | 'too_soon' | 'beyond_horizon' | 'no_free_staffer' };
