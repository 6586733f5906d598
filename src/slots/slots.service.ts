import { FieldErrorBag } from '../errors.js';
import type { LocationRow } from '../locations/locations.repository.js';
import type { Db } from '../platform/db/client.js';
import { formatMoney } from '../platform/money.js';
import { addDays, canonicalZone, daysBetween, todayIn } from '../platform/time/zone.js';
import { loadResourceNeeds } from '../resources/resource-occupancies.repository.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { makeContext } from './engine/availability.js';
import { computeSlots, evaluateAvailability, queryWindow } from './engine/compute-slots.js';
import type { AvailabilityInput, Schedule, SlotDay } from './engine/types.js';
import type { EvaluationCache } from './evaluation-cache.js';
import { loadOfferedServices, loadStafferInputs, type OfferedService } from './slots.repository.js';

export const MAX_RANGE_DAYS = 90;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const WEEK_MS = 7 * DAY_MS;

/**
 * Lets answers share engine evaluations: `stamp` names the store state and the minute of `now`
 * (SlotsCache's key prefix with the availability version); answers made under one stamp agree.
 */
export interface EvaluationReuse {
  cache: EvaluationCache;
  stamp: string;
}

export interface TimeSlotsQuery {
  service_uuid: string;
  range_start?: string | undefined;
  range_end?: string | undefined;
  staffer_uuid?: string | undefined;
  timezone?: string | undefined;
}

export interface TimeSlotsResponse {
  today: string;
  timezone: string;
  currency: string;
  dates: SlotDay[];
}

/** The engine's input for one service at one location, loaded from the store. */
export async function loadAvailability(
  db: Db,
  args: {
    workspace: WorkspaceRow;
    location: LocationRow;
    service: OfferedService;
    stafferId?: string | undefined;
    from: number;
    to: number;
    now: number;
    excludeOccupancy?: { id: string; seats: number } | undefined;
  },
): Promise<AvailabilityInput> {
  const rental = args.service.staffer_needed === false;
  // A rental reads no staffer: its hours are the location's (docs/resources.md "Rentals").
  const staffers = rental
    ? []
    : await loadStafferInputs(db, {
        workspaceId: args.workspace.id,
        locationId: args.location.id,
        serviceIds: [args.service.id],
        stafferId: args.stafferId,
        from: args.from,
        to: args.to,
        excludeOccupancy: args.excludeOccupancy,
      });
  // A service needing resources reads their busy spans too; one needing none reads nothing more.
  const resources = await loadResourceNeeds(db, {
    workspaceId: args.workspace.id,
    locationId: args.location.id,
    requirements: args.service.resource_requirements ?? [],
    capacity: args.service.capacity,
    from: args.from,
    to: args.to,
    excludeOccupancyId: args.excludeOccupancy?.id,
  });
  return {
    ...availabilityRules(args.workspace, args.location, args.service, args.now),
    staffers,
    ...(resources.length > 0 ? { resources } : {}),
    ...(rental ? { rental: rentalHours(args.location) } : {}),
  };
}

/** A rental's hours: the location's weekly opening hours, wall times in its zone. */
export function rentalHours(location: Pick<LocationRow, 'opening_hours'>): { openingHours: Schedule } {
  return { openingHours: { weekly: location.opening_hours ?? {}, breaks: {}, overrides: [] } };
}

/** The engine's input but the staffers: service, booking rules, clock. */
function availabilityRules(
  workspace: WorkspaceRow,
  location: LocationRow,
  service: OfferedService,
  now: number,
): Omit<AvailabilityInput, 'staffers'> {
  return {
    locationZone: location.timezone,
    service: {
      id: service.id,
      durationMinutes: service.duration_minutes,
      capacity: service.capacity,
      bufferBeforeMinutes: service.buffer_before_minutes,
      bufferAfterMinutes: service.buffer_after_minutes,
      priceMinor: service.price,
    },
    rules: {
      slotStepMinutes: workspace.slot_step_minutes,
      minNoticeMinutes: workspace.min_notice_minutes,
      horizonDays: workspace.horizon_days,
    },
    now,
  };
}

/** GET /locations/{uuid}/time-slots: validates the query, loads, and runs the engine. */
export async function timeSlots(
  db: Db,
  workspace: WorkspaceRow,
  location: LocationRow,
  query: TimeSlotsQuery,
  now: number,
  reuse?: EvaluationReuse,
): Promise<TimeSlotsResponse> {
  const errors = new FieldErrorBag();
  const zone = answerZone(errors, query.timezone, location);
  const today = todayIn(zone, now);
  const rangeStart = query.range_start ?? today;
  const startValid = isDate(rangeStart);
  // The default end is counted from a valid start only; a bad start alone names only range_start.
  const rangeEnd = query.range_end ?? (startValid ? addDays(rangeStart, 6) : today);
  const endValid = isDate(rangeEnd);
  if (!startValid) errors.add('range_start', dateMessage('range_start'));
  if (!endValid) errors.add('range_end', dateMessage('range_end'));
  if (startValid && endValid) {
    const span = daysBetween(rangeStart, rangeEnd);
    if (span < 0) errors.add('range_end', 'The range_end must be a date after or equal to range_start.');
    else if (span > MAX_RANGE_DAYS) {
      errors.add(
        'range_end',
        `The range between range_start and range_end must be at most ${MAX_RANGE_DAYS} days.`,
      );
    }
  }
  const service = await offeredServiceAndStaffer(db, workspace, location, query, now, errors);
  errors.throwIfAny();
  const dates = await slotDays(
    db,
    workspace,
    location,
    service!,
    query.staffer_uuid,
    zone,
    rangeStart,
    rangeEnd,
    now,
    reuse,
  );
  return { today, timezone: zone, currency: workspace.currency, dates };
}

/**
 * The days rangeStart..rangeEnd for a service and staffer the caller has already checked are
 * offered at the location (the booking page's catalog has): the engine's answer, without the
 * validating reads of `timeSlots`.
 */
export async function slotsOfCheckedService(
  db: Db,
  workspace: WorkspaceRow,
  location: LocationRow,
  service: OfferedService,
  args: { stafferId: string | undefined; zone: string; rangeStart: string; rangeEnd: string },
  now: number,
  reuse?: EvaluationReuse,
): Promise<TimeSlotsResponse> {
  const dates = await slotDays(
    db,
    workspace,
    location,
    service,
    args.stafferId,
    args.zone,
    args.rangeStart,
    args.rangeEnd,
    now,
    reuse,
  );
  return { today: todayIn(args.zone, now), timezone: args.zone, currency: workspace.currency, dates };
}

// Dates outside these years name no time anyone books, and the zone arithmetic at the ends of
// the calendar (year 0000, 9999-12-31 plus a day) is where libraries and the store give up.
const FIRST_DATE = '1970-01-01';
const LAST_DATE = '9998-12-31';

const dateMessage = (field: string) =>
  `The ${field} field must be a date in the format YYYY-MM-DD, between ${FIRST_DATE} and ${LAST_DATE}.`;

function isDate(value: string): boolean {
  if (!DATE_PATTERN.test(value) || value < FIRST_DATE || value > LAST_DATE) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

export interface NextSlotsQuery {
  service_uuid: string;
  staffer_uuid?: string | undefined;
  timezone?: string | undefined;
  from?: string | undefined;
  days?: number | undefined;
}

export const MAX_NEXT_DAYS = 31;
const NEXT_CHUNK_DAYS = 14;

/**
 * GET /locations/{uuid}/time-slots/next: the nearest `days` days having slots, from `from`
 * (default today), searched in chunks up to the booking horizon. Same shape as time-slots.
 */
export async function nextTimeSlots(
  db: Db,
  workspace: WorkspaceRow,
  location: LocationRow,
  query: NextSlotsQuery,
  now: number,
): Promise<TimeSlotsResponse> {
  const errors = new FieldErrorBag();
  const zone = answerZone(errors, query.timezone, location);
  if (query.from !== undefined && !isDate(query.from)) {
    errors.add('from', dateMessage('from'));
  }
  // Checked once here, not again for every chunk searched below.
  const service = await offeredServiceAndStaffer(db, workspace, location, query, now, errors);
  errors.throwIfAny();
  const wanted = query.days ?? 1;
  const today = todayIn(zone, now);
  const lastDate = todayIn(zone, now + workspace.horizon_days * DAY_MS);
  let chunkStart = query.from !== undefined && query.from > today ? query.from : today;
  const found: SlotDay[] = [];
  while (found.length < wanted && chunkStart <= lastDate) {
    const chunkEnd = minDate(addDays(chunkStart, NEXT_CHUNK_DAYS - 1), lastDate);
    const days = await slotDays(
      db,
      workspace,
      location,
      service!,
      query.staffer_uuid,
      zone,
      chunkStart,
      chunkEnd,
      now,
    );
    for (const day of days) {
      if (day.slots.length > 0 && found.length < wanted) found.push(day);
    }
    chunkStart = addDays(chunkEnd, 1);
  }
  return { today, timezone: zone, currency: workspace.currency, dates: found };
}

/**
 * The zone answers are given in: the requested one in its tz-database spelling, else the
 * location's (422 when unknown).
 */
function answerZone(errors: FieldErrorBag, requested: string | undefined, location: LocationRow): string {
  if (requested === undefined) return location.timezone;
  const zone = canonicalZone(requested);
  if (zone !== undefined) return zone;
  errors.add('timezone', 'The timezone must be an IANA time-zone name such as Europe/Berlin.');
  return location.timezone;
}

/** The service, offered at the location, and (if named) a staffer who provides it there. */
async function offeredServiceAndStaffer(
  db: Db,
  workspace: WorkspaceRow,
  location: LocationRow,
  query: { service_uuid: string; staffer_uuid?: string | undefined },
  now: number,
  errors: FieldErrorBag,
): Promise<OfferedService | undefined> {
  const services = await loadOfferedServices(db, workspace.id, location.id, [query.service_uuid]);
  const service = services.get(query.service_uuid);
  if (!service) {
    errors.add('service_uuid', 'The selected service is not offered at this location.');
    return undefined;
  }
  if (query.staffer_uuid && service.staffer_needed === false) {
    errors.add('staffer_uuid', 'The selected service needs no staffer.');
  } else if (query.staffer_uuid) {
    const eligible = await loadStafferInputs(db, {
      workspaceId: workspace.id,
      locationId: location.id,
      serviceIds: [service.id],
      stafferId: query.staffer_uuid,
      from: now,
      to: now,
    });
    if (eligible.length === 0) {
      errors.add('staffer_uuid', 'The selected staffer does not provide this service at this location.');
    }
  }
  return service;
}

/** The engine's days for answer-zone dates rangeStart..rangeEnd. */
async function slotDays(
  db: Db,
  workspace: WorkspaceRow,
  location: LocationRow,
  service: OfferedService,
  stafferId: string | undefined,
  zone: string,
  rangeStart: string,
  rangeEnd: string,
  now: number,
  reuse?: EvaluationReuse,
): Promise<SlotDay[]> {
  const range = {
    answerZone: zone,
    rangeStart,
    rangeEnd,
    priceFormatted: formatMoney(service.price, workspace.currency, workspace.locale),
  };
  if (reuse === undefined) {
    const availability = await loadAvailability(db, {
      workspace,
      location,
      service,
      stafferId,
      // A local date lies within a day and a bit of its UTC midnight in every zone (offsets ≤ 14 h).
      from: Date.parse(rangeStart) - DAY_MS,
      to: Date.parse(rangeEnd) + 2 * DAY_MS,
      now,
    });
    return computeSlots({ ...availability, ...range });
  }
  const rules = availabilityRules(workspace, location, service, now);
  const query = { ...rules, staffers: [], ...range };
  const window = queryWindow(query);
  if (window.lower > window.upper) return computeSlots(query);
  // The evaluated window: the query's, widened to whole UTC weeks so that shifted ranges and
  // other answer zones meet the same one, and cut at the minute of the notice and of the
  // horizon (not their exact instants), so every request of this minute finds the same window.
  const { earliest, latest } = makeContext(query);
  const lower = Math.max(floorTo(earliest, MINUTE_MS), floorTo(window.lower, WEEK_MS));
  const upper = Math.min(floorTo(latest, MINUTE_MS) + MINUTE_MS, floorTo(window.upper, WEEK_MS) + WEEK_MS);
  const key = [reuse.stamp, workspace.id, location.id, service.id, stafferId ?? '', lower, upper].join('|');
  let evaluation = reuse.cache.get(key);
  if (evaluation === undefined) {
    const availability = await loadAvailability(db, {
      workspace,
      location,
      service,
      stafferId,
      from: lower - DAY_MS,
      to: upper + DAY_MS,
      now,
    });
    evaluation = evaluateAvailability(availability, lower, upper);
    reuse.cache.set(key, evaluation);
  }
  return computeSlots(query, evaluation);
}

function floorTo(value: number, unit: number): number {
  return Math.floor(value / unit) * unit;
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}
