import ICAL from 'ical.js';
import { canonicalZone, offsetMinutesAt, resolveLocalMs } from '../platform/time/zone.js';

/**
 * Busy spans of one calendar object (an .ics resource of a CalDAV calendar): every instance of
 * its VEVENTs inside [from, to), as epoch-ms half-open spans. Pure: no clock, no store.
 *
 * How times are read (RFC 5545 §3.3.5):
 * - UTC (`...Z`): as is.
 * - TZID naming an IANA zone: the wall time resolved in that zone with the platform's zone data
 *   (the same as the slot engine uses), so a VTIMEZONE shipped by the server never disagrees
 *   with how schedules are read.
 * - TZID naming no IANA zone (Outlook's "W. Europe Standard Time"): the file's VTIMEZONE, read
 *   by ical.js.
 * - floating (no zone) and all-day dates: in `floatingZone` (the staffer's location zone).
 * A wall time in a spring-forward gap takes the offset before the gap; one in a fall-back
 * overlap the first instant (both as RFC 5545 says).
 *
 * Recurrence is expanded in wall time (an RRULE weekly at 09:00 Europe/Berlin stays at 09:00
 * across DST), EXDATEs remove instances, RECURRENCE-ID overrides replace theirs (a moved,
 * cancelled or transparent override counts as itself). TRANSP:TRANSPARENT and STATUS:CANCELLED
 * never block; all-day events block only when `allDayBlocks`.
 */
export interface BusyInstance {
  /** The event's UID. */
  uid: string;
  /** Epoch ms of the instance's original start (its RECURRENCE-ID); null for a single event. */
  recurrence: number | null;
  start: number;
  end: number;
  allDay: boolean;
  /** The SUMMARY, for staffers who show titles; '' when none. */
  title: string;
}

export interface ExpandOptions {
  floatingZone: string;
  from: number;
  to: number;
  allDayBlocks: boolean;
  /** Upper bound of instances read per recurring event (runaway rules such as FREQ=SECONDLY). */
  maxInstancesPerEvent?: number;
}

/** A calendar object whose text is not iCalendar. */
export class IcsUnreadable extends Error {
  constructor(reason: string) {
    super(`Unreadable calendar object: ${reason}`);
    this.name = 'IcsUnreadable';
  }
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const DEFAULT_MAX_INSTANCES = 20_000;

export function busyInstances(ics: string, options: ExpandOptions): BusyInstance[] {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(ics) as unknown[]);
  } catch (error) {
    throw new IcsUnreadable((error as Error).message);
  }
  const zones = new Map<string, ICAL.Timezone>();
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const tzid = vtz.getFirstPropertyValue('tzid');
    if (typeof tzid === 'string') zones.set(tzid, new ICAL.Timezone(vtz));
  }
  const reader = new TimeReader(zones, options.floatingZone);
  const masters = new Map<string, ICAL.Component>();
  const overrides = new Map<string, ICAL.Component[]>();
  for (const vevent of root.getAllSubcomponents('vevent')) {
    const uid = String(vevent.getFirstPropertyValue('uid') ?? '');
    if (vevent.hasProperty('recurrence-id')) {
      const list = overrides.get(uid) ?? [];
      list.push(vevent);
      overrides.set(uid, list);
    } else {
      masters.set(uid, vevent);
    }
  }
  const out: BusyInstance[] = [];
  for (const [uid, master] of masters) {
    expandMaster(uid, master, overrides.get(uid) ?? [], reader, options, out);
  }
  // Overrides whose master is not in this object (a server may send them alone): each by itself.
  for (const [uid, list] of overrides) {
    if (masters.has(uid)) continue;
    for (const vevent of list)
      pushSingle(uid, vevent, reader, options, out, reader.instant(prop(vevent, 'recurrence-id')!));
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  return out;
}

function prop(vevent: ICAL.Component, name: string): ICAL.Property | null {
  return vevent.getFirstProperty(name);
}

function blocks(vevent: ICAL.Component): boolean {
  const transp = String(vevent.getFirstPropertyValue('transp') ?? '').toUpperCase();
  const status = String(vevent.getFirstPropertyValue('status') ?? '').toUpperCase();
  return transp !== 'TRANSPARENT' && status !== 'CANCELLED';
}

/** Start and end of one VEVENT as read (no recurrence). */
function ownSpan(
  vevent: ICAL.Component,
  reader: TimeReader,
): { start: number; end: number; allDay: boolean } | null {
  const dtstart = prop(vevent, 'dtstart');
  if (!dtstart) return null;
  const startTime = dtstart.getFirstValue() as ICAL.Time;
  const allDay = startTime.isDate;
  const start = reader.instant(dtstart);
  const dtend = prop(vevent, 'dtend');
  let end: number;
  if (dtend) end = reader.instant(dtend);
  else if (vevent.hasProperty('duration')) {
    const duration = vevent.getFirstPropertyValue('duration') as ICAL.Duration;
    end = reader.plusDuration(dtstart, duration);
  } else end = allDay ? reader.plusDays(dtstart, 1) : start;
  return { start, end: Math.max(end, start), allDay };
}

function pushSingle(
  uid: string,
  vevent: ICAL.Component,
  reader: TimeReader,
  options: ExpandOptions,
  out: BusyInstance[],
  recurrence: number | null,
): void {
  if (!blocks(vevent)) return;
  const span = ownSpan(vevent, reader);
  if (!span) return;
  if (span.allDay && !options.allDayBlocks) return;
  if (span.end <= span.start) return;
  if (span.end <= options.from || span.start >= options.to) return;
  out.push({ uid, recurrence, ...span, title: String(vevent.getFirstPropertyValue('summary') ?? '') });
}

function expandMaster(
  uid: string,
  master: ICAL.Component,
  overrides: ICAL.Component[],
  reader: TimeReader,
  options: ExpandOptions,
  out: BusyInstance[],
): void {
  const dtstart = prop(master, 'dtstart');
  const rrules = master.getAllProperties('rrule');
  const rdates = master.getAllProperties('rdate');
  if (!dtstart || (rrules.length === 0 && rdates.length === 0)) {
    pushSingle(uid, master, reader, options, out, null);
    for (const o of overrides)
      pushSingle(uid, o, reader, options, out, reader.instant(prop(o, 'recurrence-id')!));
    return;
  }
  const own = ownSpan(master, reader);
  if (!own) return;
  const title = String(master.getFirstPropertyValue('summary') ?? '');
  const masterBlocks = blocks(master) && (!own.allDay || options.allDayBlocks);
  const startTime = dtstart.getFirstValue() as ICAL.Time;
  // Instances keep the master's wall-clock length when start and end share a zone (a 1-hour
  // meeting stays 1 hour of wall time on the DST day, RFC 5545 §3.8.5.3 takes DTSTART's zone).
  const zoneOfStart = reader.zoneOf(dtstart);
  const localStart = wallMs(startTime);
  const dtend = prop(master, 'dtend');
  const sameZone = dtend ? reader.zoneOf(dtend) === zoneOfStart : true;
  const wallLength = dtend && sameZone ? wallMs(dtend.getFirstValue() as ICAL.Time) - localStart : null;
  const exactLength = own.end - own.start;

  const exdates = new Set<number>();
  for (const ex of master.getAllProperties('exdate')) {
    for (const value of ex.getValues() as ICAL.Time[]) exdates.add(reader.instantOfTime(value, ex));
  }
  const replaced = new Map<number, ICAL.Component>();
  for (const o of overrides) {
    const rid = prop(o, 'recurrence-id');
    if (rid) replaced.set(reader.instant(rid), o);
  }
  const instanceStarts = new Set<number>();
  const max = options.maxInstancesPerEvent ?? DEFAULT_MAX_INSTANCES;
  // The rule runs over floating wall times; each is then resolved in DTSTART's zone.
  const floatingStart = ICAL.Time.fromData({
    year: startTime.year,
    month: startTime.month,
    day: startTime.day,
    hour: startTime.hour,
    minute: startTime.minute,
    second: startTime.second,
    isDate: startTime.isDate,
  });
  // Wall-time bound of the window in the start zone, with a day of slack both sides.
  const lastLocal = options.to + 2 * DAY_MS + 14 * 60 * MINUTE_MS;
  for (const rruleProp of rrules) {
    const recur = (rruleProp.getFirstValue() as ICAL.Recur).clone();
    if (recur.until) {
      // UNTIL in UTC bounds instants: turn it into the wall time of DTSTART's zone.
      const untilInstant = reader.instantOfTime(recur.until, rruleProp, zoneOfStart);
      const local = untilInstant + offsetIn(zoneOfStart, untilInstant, reader) * MINUTE_MS;
      recur.until = floatingFromWall(
        startTime.isDate ? Math.floor(local / DAY_MS) * DAY_MS : local,
        startTime.isDate,
      );
    }
    const iterator = recur.iterator(floatingStart);
    let count = 0;
    for (let next = iterator.next(); next; next = iterator.next()) {
      if (++count > max) break;
      const local = wallMs(next);
      if (local > lastLocal) break;
      instanceStarts.add(reader.resolve(zoneOfStart, local));
    }
  }
  for (const rdateProp of rdates) {
    for (const value of rdateProp.getValues() as (ICAL.Time | ICAL.Period)[]) {
      const time = value instanceof ICAL.Period ? value.start : value;
      instanceStarts.add(reader.instantOfTime(time, rdateProp, zoneOfStart));
    }
  }
  for (const instant of instanceStarts) {
    if (exdates.has(instant)) continue;
    const override = replaced.get(instant);
    if (override) {
      pushSingle(uid, override, reader, options, out, instant);
      replaced.delete(instant);
      continue;
    }
    if (!masterBlocks) continue;
    let end: number;
    if (wallLength !== null && zoneOfStart !== null) {
      end = reader.resolve(zoneOfStart, localOf(instant, zoneOfStart, reader) + wallLength);
    } else end = instant + exactLength;
    if (end <= instant || end <= options.from || instant >= options.to) continue;
    out.push({ uid, recurrence: instant, start: instant, end, allDay: own.allDay, title });
  }
  // Overrides for instances the rule does not produce (an RDATE-less move of a far instance).
  for (const [instant, override] of replaced) pushSingle(uid, override, reader, options, out, instant);
}

/** Wall clock of an ICAL.Time as "local ms" (the wall clock read as UTC). */
function wallMs(time: ICAL.Time): number {
  return Date.UTC(
    time.year,
    time.month - 1,
    time.day,
    time.isDate ? 0 : time.hour,
    time.isDate ? 0 : time.minute,
    time.isDate ? 0 : time.second,
  );
}

function floatingFromWall(local: number, isDate: boolean): ICAL.Time {
  const d = new Date(local);
  return ICAL.Time.fromData({
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    isDate,
  });
}

function offsetIn(zone: ZoneRef | null, instant: number, reader: TimeReader): number {
  return reader.offsetAt(zone, instant);
}

function localOf(instant: number, zone: ZoneRef, reader: TimeReader): number {
  return instant + reader.offsetAt(zone, instant) * MINUTE_MS;
}

/** An IANA zone name, or a VTIMEZONE of the file. */
type ZoneRef = string | ICAL.Timezone;

class TimeReader {
  constructor(
    private readonly zones: Map<string, ICAL.Timezone>,
    readonly floatingZone: string,
  ) {}

  /** The zone a DATE-TIME property's wall time is in; null for UTC. */
  zoneOf(property: ICAL.Property): ZoneRef | null {
    const time = property.getFirstValue() as ICAL.Time;
    return this.zoneOfTime(time, property);
  }

  zoneOfTime(time: ICAL.Time, property: ICAL.Property, fallback?: ZoneRef | null): ZoneRef | null {
    if (time.isDate) return this.floatingZone;
    if (time.zone === ICAL.Timezone.utcTimezone) return null;
    const tzid = property.getParameter('tzid');
    if (typeof tzid === 'string' && tzid !== '') {
      const iana = canonicalZone(tzid) ?? canonicalZone(tzid.replace(/^\/+/, ''));
      if (iana) return iana;
      const vtz = this.zones.get(tzid);
      if (vtz) return vtz;
      return this.floatingZone;
    }
    // A value without TZID inside a recurring property (EXDATE, RDATE, UNTIL): DTSTART's zone.
    if (fallback !== undefined) return fallback;
    return this.floatingZone;
  }

  instant(property: ICAL.Property): number {
    return this.instantOfTime(property.getFirstValue() as ICAL.Time, property);
  }

  instantOfTime(time: ICAL.Time, property: ICAL.Property, fallback?: ZoneRef | null): number {
    const zone = this.zoneOfTime(time, property, fallback);
    const local = wallMs(time);
    if (zone === null) return local;
    return this.resolve(zone, local);
  }

  /** The instant of a wall time in a zone: a gap takes the offset before it, an overlap the first. */
  resolve(zone: ZoneRef | null, local: number): number {
    if (zone === null) return local;
    if (typeof zone === 'string') {
      const instants = resolveLocalMs(zone, local);
      if (instants.length > 0) return instants[0]!;
      return local - offsetMinutesAt(zone, local - DAY_MS) * MINUTE_MS;
    }
    const time = floatingFromWall(local, false);
    return local - zone.utcOffset(time) * 1000;
  }

  offsetAt(zone: ZoneRef | null, instant: number): number {
    if (zone === null) return 0;
    if (typeof zone === 'string') return offsetMinutesAt(zone, instant);
    const utc = ICAL.Time.fromJSDate(new Date(instant), true);
    return Math.round(zone.utcOffset(utc) / 60);
  }

  plusDuration(property: ICAL.Property, duration: ICAL.Duration): number {
    const time = property.getFirstValue() as ICAL.Time;
    const zone = this.zoneOf(property);
    const wholeDays = (duration.weeks * 7 + duration.days) * (duration.isNegative ? -1 : 1);
    const rest =
      (duration.hours * 3600 + duration.minutes * 60 + duration.seconds) *
      1000 *
      (duration.isNegative ? -1 : 1);
    // Days and weeks are nominal (wall time), hours and smaller exact (RFC 5545 §3.3.6).
    const local = wallMs(time) + wholeDays * DAY_MS;
    return this.resolve(zone, local) + rest;
  }

  plusDays(property: ICAL.Property, days: number): number {
    const time = property.getFirstValue() as ICAL.Time;
    return this.resolve(this.zoneOf(property), wallMs(time) + days * DAY_MS);
  }
}
