/**
 * Time-zone helpers for the slot engine and the API: instants in UTC, wall times in IANA zones.
 *
 * All functions take and return plain numbers (epoch ms) and strings ('YYYY-MM-DD', IANA zone
 * names); Luxon's IANAZone is used only to ask "what is the UTC offset at this instant". Those
 * answers are memoised per zone and UTC day, because the slot engine asks thousands of times per
 * request and Luxon answers each question with an Intl formatToParts call.
 */
import { DateTime, IANAZone } from 'luxon';

export type WeekdayName = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const WEEKDAYS: readonly WeekdayName[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

// Spellings already resolved. Luxon and Intl build an Intl.DateTimeFormat for every check
// (~0.3 ms), and time-slot requests name a zone each. Only valid names are kept, and at most
// MAX_KNOWN_ZONES of them (Intl accepts any letter case, so spellings outnumber the tz database).
const knownZones = new Map<string, string>();
const MAX_KNOWN_ZONES = 5000;

/**
 * The name to store and answer with for a requested zone, or undefined when it is not an IANA
 * zone. Intl matches names in any letter case and resolves them to ICU's spelling, so
 * "europe/berlin" becomes "Europe/Berlin". Where ICU's name is another alias of the zone (it says
 * "Asia/Katmandu" for "Asia/Kathmandu") the name is kept as given: answering with an outdated
 * alias would surprise more than an odd letter case. Only names that start with a letter count:
 * newer engines also accept bare offsets ("+02:00").
 */
export function canonicalZone(name: string): string | undefined {
  const known = knownZones.get(name);
  if (known !== undefined) return known;
  if (typeof name !== 'string' || !/^[A-Za-z]/.test(name) || !IANAZone.isValidZone(name)) return undefined;
  const lower = name.toLowerCase();
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  const canonical = resolved.toLowerCase() === lower ? resolved : name;
  if (knownZones.size < MAX_KNOWN_ZONES) knownZones.set(name, canonical);
  return canonical;
}

/**
 * Offsets of one UTC day [day*DAY_MS, (day+1)*DAY_MS): `before` until the instant `change`,
 * `after` from it on. `change` is Infinity on the (usual) days without a transition.
 * Why one transition per UTC day at most: no zone in the tz database has had two within a day.
 */
interface DayOffsets {
  before: number;
  after: number;
  change: number;
}

interface ZoneCache {
  zone: IANAZone;
  days: Map<number, DayOffsets>;
}

const zoneCaches = new Map<string, ZoneCache>();
// Why a bound: a long-running server asks about arbitrary dates; ~270 years per zone is plenty.
const MAX_DAYS_PER_ZONE = 100_000;

function zoneCache(name: string): ZoneCache {
  let cache = zoneCaches.get(name);
  if (cache === undefined) {
    const zone = IANAZone.create(name);
    if (!zone.isValid) throw new RangeError(`Invalid time zone: ${name}`);
    cache = { zone, days: new Map() };
    zoneCaches.set(name, cache);
  }
  return cache;
}

function computeDayOffsets(zone: IANAZone, dayStart: number): DayOffsets {
  const before = zone.offset(dayStart);
  const atEnd = zone.offset(dayStart + DAY_MS);
  if (atEnd === before) return { before, after: before, change: Number.POSITIVE_INFINITY };
  // Binary search for the first whole second with the new offset (transitions fall on seconds,
  // and Luxon truncates the instant to seconds anyway).
  let lo = dayStart;
  let hi = dayStart + DAY_MS;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (zone.offset(mid) === before) lo = mid;
    else hi = mid;
  }
  return { before, after: zone.offset(hi), change: hi };
}

/** UTC offset in minutes of `zone` at instant `epochMs` (positive east of Greenwich). */
export function offsetMinutesAt(zone: string, epochMs: number): number {
  const cache = zoneCache(zone);
  const day = Math.floor(epochMs / DAY_MS);
  let entry = cache.days.get(day);
  if (entry === undefined) {
    if (cache.days.size >= MAX_DAYS_PER_ZONE) cache.days.clear();
    entry = computeDayOffsets(cache.zone, day * DAY_MS);
    cache.days.set(day, entry);
  }
  return epochMs < entry.change ? entry.before : entry.after;
}

// Parsed dates are memoised: the engine converts the same few hundred dates over and over.
const parsedDates = new Map<string, number>();
const MAX_PARSED_DATES = 50_000;

/** 'YYYY-MM-DD' -> epoch ms of that date's midnight read as UTC (the "local ms" origin). */
export function dateToUtcMs(date: string): number {
  const cached = parsedDates.get(date);
  if (cached !== undefined) return cached;
  const ms = parseDate(date);
  if (parsedDates.size >= MAX_PARSED_DATES) parsedDates.clear();
  parsedDates.set(date, ms);
  return ms;
}

function parseDate(date: string): number {
  const m = DATE_RE.exec(date);
  if (m === null) throw new RangeError(`Invalid date: ${date}`);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  // Why: Date.UTC silently rolls 2026-02-30 over to March; a wrong date must not pass.
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new RangeError(`Invalid date: ${date}`);
  }
  return ms;
}

/** Epoch ms -> 'YYYY-MM-DD' of its UTC date. */
export function utcMsToDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * All instants at which the wall clock of `zone` shows `date` + `minuteOfDay` minutes, sorted:
 * none when that wall time falls into a DST gap, two in a fall-back overlap, else one.
 * `minuteOfDay` may exceed 1440 (it then rolls into the following days, so 24:00 = next 00:00).
 *
 * Why this works: around one transition the only offsets in play are the ones in force a day
 * before and a day after; a candidate instant `local - offset` is real exactly when the zone
 * really has that offset at that instant (the offset "round-trips").
 */
export function resolveWallTime(zone: string, date: string, minuteOfDay: number): number[] {
  return resolveLocalMs(zone, dateToUtcMs(date) + minuteOfDay * MINUTE_MS);
}

/** Same as resolveWallTime, with the wall time given as "local ms" (wall clock read as UTC). */
export function resolveLocalMs(zone: string, localMs: number): number[] {
  const early = offsetMinutesAt(zone, localMs - DAY_MS);
  const late = offsetMinutesAt(zone, localMs + DAY_MS);
  const first = localMs - early * MINUTE_MS;
  const firstOk = offsetMinutesAt(zone, first) === early;
  if (early === late) return firstOk ? [first] : [];
  const second = localMs - late * MINUTE_MS;
  const secondOk = offsetMinutesAt(zone, second) === late;
  if (firstOk && secondOk) return first < second ? [first, second] : [second, first];
  if (firstOk) return [first];
  if (secondOk) return [second];
  return [];
}

/**
 * The offset of `zone` throughout the local date starting at `dayLocalMs` ("local ms" of its
 * midnight) when no transition comes near it, else undefined. Then every wall time of that date
 * resolves to exactly `local - offset`, as resolveLocalMs would say, without asking per minute.
 */
export function steadyOffsetOn(zone: string, dayLocalMs: number): number | undefined {
  const before = offsetMinutesAt(zone, dayLocalMs - DAY_MS);
  const noon = offsetMinutesAt(zone, dayLocalMs + DAY_MS / 2);
  const after = offsetMinutesAt(zone, dayLocalMs + 2 * DAY_MS);
  return before === noon && noon === after ? before : undefined;
}

/**
 * One instant for a boundary of a wall-clock range (a schedule's from/to, a day's midnight).
 * In an overlap a range start takes the earlier instant and a range end the later one, so the
 * range covers every instant whose wall clock lies inside it. In a gap both take the instant the
 * clock jumps (e.g. a shift "02:00-04:00" on a spring-forward day starts at 03:00 and lasts 1h).
 */
export function resolveWallBoundary(
  zone: string,
  date: string,
  minuteOfDay: number,
  side: 'start' | 'end',
): number {
  return resolveLocalBoundary(zone, dateToUtcMs(date) + minuteOfDay * MINUTE_MS, side);
}

/** Same as resolveWallBoundary, with the wall time given as "local ms". */
export function resolveLocalBoundary(zone: string, localMs: number, side: 'start' | 'end'): number {
  // Fast path without allocation for the usual wall time far from any transition.
  const early = offsetMinutesAt(zone, localMs - DAY_MS);
  if (early === offsetMinutesAt(zone, localMs + DAY_MS)) {
    const t = localMs - early * MINUTE_MS;
    if (offsetMinutesAt(zone, t) === early) return t;
  }
  const instants = resolveLocalMs(zone, localMs);
  if (instants.length > 0) return side === 'start' ? instants[0]! : instants[instants.length - 1]!;
  // Gap: reading the wall time with the later offset lands before the jump, with the earlier
  // offset after it; the jump instant lies in between.
  let lo = localMs - offsetMinutesAt(zone, localMs + DAY_MS) * MINUTE_MS;
  let hi = localMs - offsetMinutesAt(zone, localMs - DAY_MS) * MINUTE_MS;
  const offsetBefore = offsetMinutesAt(zone, lo);
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetMinutesAt(zone, mid) === offsetBefore) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The wall clock of `zone` at `epochMs`, as "local ms" (wall clock read as UTC). */
export function localMsOf(epochMs: number, zone: string): number {
  return epochMs + offsetMinutesAt(zone, epochMs) * MINUTE_MS;
}

/** The local date ('YYYY-MM-DD') in `zone` at `epochMs`. */
export function localDateOf(epochMs: number, zone: string): string {
  return utcMsToDate(localMsOf(epochMs, zone));
}

/** Minutes since local midnight of the wall clock in `zone` at `epochMs` (seconds dropped). */
export function wallMinutesOf(epochMs: number, zone: string): number {
  const local = localMsOf(epochMs, zone);
  return Math.floor((local - Math.floor(local / DAY_MS) * DAY_MS) / MINUTE_MS);
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/** 'HH:MM' for a count of minutes since midnight (1440 gives '24:00'). */
export function formatMinutes(minutes: number): string {
  return `${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
}

function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(Math.round(offsetMinutes));
  return `${sign}${formatMinutes(abs)}`;
}

const offsetLabels = new Map<number, string>();

/** A UTC offset in minutes as '+02:00' / '-03:30'; memoised (slot lists print thousands). */
export function offsetLabel(offsetMinutes: number): string {
  let label = offsetLabels.get(offsetMinutes);
  if (label === undefined) {
    label = formatOffset(offsetMinutes);
    if (offsetLabels.size < 1000) offsetLabels.set(offsetMinutes, label);
  }
  return label;
}

/** Wall time with offset, seconds and no millis: '2026-09-10T14:00:00+02:00'. */
export function formatLocalIso(epochMs: number, zone: string): string {
  const offset = offsetMinutesAt(zone, epochMs);
  const local = new Date(epochMs + offset * MINUTE_MS).toISOString().slice(0, 19);
  return local + formatOffset(offset);
}

const shortZoneNames = new Map<string, string>();

/**
 * A zone's offset ('+02:00') and short name ('CEST') in force at `epochMs`, as Luxon's
 * toFormat('ZZ') and offsetNameShort give them. Why memoised per zone, offset and day: Luxon builds a
 * new Intl.DateTimeFormat for every short name (~0.1 ms), which was most of GET /locations' time.
 */
export function zoneLabelAt(zone: string, epochMs: number): { offset: string; short: string } {
  const offsetMinutes = offsetMinutesAt(zone, epochMs);
  // Per UTC day too: some zones renamed an offset over the years (America/Chihuahua: GMT-6, CST).
  const key = `${zone} ${offsetMinutes} ${Math.floor(epochMs / DAY_MS)}`;
  let short = shortZoneNames.get(key);
  if (short === undefined) {
    if (shortZoneNames.size >= MAX_PARSED_DATES) shortZoneNames.clear();
    short = DateTime.fromMillis(epochMs, { zone }).offsetNameShort ?? '';
    shortZoneNames.set(key, short);
  }
  return { offset: formatOffset(offsetMinutes), short };
}

const utcDatePrefixes = new Map<number, string>();

/** UTC instant with 'Z', seconds and no millis: '2026-09-10T12:00:00Z'. */
export function toUtcIso(epochMs: number): string {
  // Why hand-built: the slot list formats thousands of instants per request; the date part
  // is shared by all instants of a UTC day.
  const day = Math.floor(epochMs / DAY_MS);
  let prefix = utcDatePrefixes.get(day);
  if (prefix === undefined) {
    if (utcDatePrefixes.size >= MAX_PARSED_DATES) utcDatePrefixes.clear();
    prefix = `${utcMsToDate(day * DAY_MS)}T`;
    utcDatePrefixes.set(day, prefix);
  }
  const seconds = Math.floor((epochMs - day * DAY_MS) / 1000);
  const minutes = Math.floor(seconds / 60);
  return `${prefix}${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}:${pad2(seconds % 60)}Z`;
}

export function addDays(date: string, n: number): string {
  return utcMsToDate(dateToUtcMs(date) + n * DAY_MS);
}

export function weekdayOf(date: string): WeekdayName {
  return WEEKDAYS[new Date(dateToUtcMs(date)).getUTCDay()]!;
}

/** Today's date in `zone` for the injected clock `now` (epoch ms). */
export function todayIn(zone: string, now: number): string {
  return localDateOf(now, zone);
}

/** Whole days from date `a` to date `b` (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  return Math.round((dateToUtcMs(b) - dateToUtcMs(a)) / DAY_MS);
}
