import { describe, expect, it } from 'vitest';
import {
  addDays,
  canonicalZone,
  daysBetween,
  formatLocalIso,
  localDateOf,
  resolveWallBoundary,
  resolveWallTime,
  todayIn,
  toUtcIso,
  wallMinutesOf,
  weekdayOf,
} from './zone.js';

const at = (iso: string) => Date.parse(iso);
const isoList = (instants: number[]) => instants.map((t) => new Date(t).toISOString());
const hm = (h: number, m = 0) => h * 60 + m;

describe('resolveWallTime', () => {
  it('ordinary wall times resolve to exactly one instant', () => {
    // Berlin in September is UTC+2; Kathmandu is always UTC+5:45; Kolkata UTC+5:30.
    expect(isoList(resolveWallTime('Europe/Berlin', '2026-09-10', hm(14)))).toEqual([
      '2026-09-10T12:00:00.000Z',
    ]);
    expect(isoList(resolveWallTime('Asia/Kathmandu', '2026-01-15', hm(9)))).toEqual([
      '2026-01-15T03:15:00.000Z',
    ]);
    expect(isoList(resolveWallTime('Asia/Kolkata', '2026-01-15', hm(0, 15)))).toEqual([
      '2026-01-14T18:45:00.000Z',
    ]);
    expect(isoList(resolveWallTime('UTC', '2026-01-15', hm(23, 59)))).toEqual(['2026-01-15T23:59:00.000Z']);
  });

  it('a wall time in a spring-forward gap has no instant', () => {
    // Berlin 2026-03-29: 02:00 CET jumps to 03:00 CEST, so 02:00..02:59 never show.
    expect(resolveWallTime('Europe/Berlin', '2026-03-29', hm(2))).toEqual([]);
    expect(resolveWallTime('Europe/Berlin', '2026-03-29', hm(2, 30))).toEqual([]);
    expect(resolveWallTime('Europe/Berlin', '2026-03-29', hm(2, 59))).toEqual([]);
    expect(isoList(resolveWallTime('Europe/Berlin', '2026-03-29', hm(1, 59)))).toEqual([
      '2026-03-29T00:59:00.000Z',
    ]);
    expect(isoList(resolveWallTime('Europe/Berlin', '2026-03-29', hm(3)))).toEqual([
      '2026-03-29T01:00:00.000Z',
    ]);
    // New York 2026-03-08: 02:00 EST jumps to 03:00 EDT.
    expect(resolveWallTime('America/New_York', '2026-03-08', hm(2, 30))).toEqual([]);
    // Lord Howe 2026-10-04: 02:00 (+10:30) jumps by only 30 minutes to 02:30 (+11:00).
    expect(resolveWallTime('Australia/Lord_Howe', '2026-10-04', hm(2, 15))).toEqual([]);
    expect(isoList(resolveWallTime('Australia/Lord_Howe', '2026-10-04', hm(2, 30)))).toEqual([
      '2026-10-03T15:30:00.000Z',
    ]);
  });

  it('a wall time in a fall-back overlap has both instants, earlier first', () => {
    // Berlin 2026-10-25: 03:00 CEST goes back to 02:00 CET; 02:30 shows at +02:00 then at +01:00.
    expect(isoList(resolveWallTime('Europe/Berlin', '2026-10-25', hm(2, 30)))).toEqual([
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:30:00.000Z',
    ]);
    expect(isoList(resolveWallTime('Europe/Berlin', '2026-10-25', hm(3)))).toEqual([
      '2026-10-25T02:00:00.000Z',
    ]);
    // New York 2026-11-01: 01:30 EDT (-4) then 01:30 EST (-5).
    expect(isoList(resolveWallTime('America/New_York', '2026-11-01', hm(1, 30)))).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-01T06:30:00.000Z',
    ]);
    // Lord Howe 2026-04-05: 02:00 (+11) goes back to 01:30 (+10:30).
    expect(isoList(resolveWallTime('Australia/Lord_Howe', '2026-04-05', hm(1, 45)))).toEqual([
      '2026-04-04T14:45:00.000Z',
      '2026-04-04T15:15:00.000Z',
    ]);
  });

  it('minuteOfDay 1440 is the next midnight', () => {
    expect(isoList(resolveWallTime('Europe/Berlin', '2026-09-10', 1440))).toEqual([
      '2026-09-10T22:00:00.000Z',
    ]);
  });

  it('rejects malformed dates and unknown zones', () => {
    expect(() => resolveWallTime('Europe/Berlin', '2026-02-30', 0)).toThrow(RangeError);
    expect(() => resolveWallTime('Europe/Berlin', '26-02-01', 0)).toThrow(RangeError);
    expect(() => resolveWallTime('Mars/Olympus', '2026-02-01', 0)).toThrow(RangeError);
  });
});

describe('resolveWallBoundary', () => {
  it('a boundary in a gap is the instant the clock jumps', () => {
    expect(resolveWallBoundary('Europe/Berlin', '2026-03-29', hm(2, 30), 'start')).toBe(
      at('2026-03-29T01:00:00Z'),
    );
    expect(resolveWallBoundary('Europe/Berlin', '2026-03-29', hm(2, 30), 'end')).toBe(
      at('2026-03-29T01:00:00Z'),
    );
  });

  it('a boundary in an overlap: start takes the first instant, end the second', () => {
    expect(resolveWallBoundary('Europe/Berlin', '2026-10-25', hm(2, 30), 'start')).toBe(
      at('2026-10-25T00:30:00Z'),
    );
    expect(resolveWallBoundary('Europe/Berlin', '2026-10-25', hm(2, 30), 'end')).toBe(
      at('2026-10-25T01:30:00Z'),
    );
  });
});

describe('formatLocalIso and toUtcIso', () => {
  it('formats wall time with the offset in force, seconds and no millis', () => {
    expect(formatLocalIso(at('2026-09-10T12:00:00Z'), 'Europe/Berlin')).toBe('2026-09-10T14:00:00+02:00');
    expect(formatLocalIso(at('2026-01-10T12:00:00Z'), 'Europe/Berlin')).toBe('2026-01-10T13:00:00+01:00');
    expect(formatLocalIso(at('2026-01-10T12:00:00.789Z'), 'Asia/Kolkata')).toBe('2026-01-10T17:30:00+05:30');
    expect(formatLocalIso(at('2026-01-10T20:00:00Z'), 'Asia/Kathmandu')).toBe('2026-01-11T01:45:00+05:45');
    expect(formatLocalIso(at('2026-07-01T03:00:00Z'), 'America/New_York')).toBe('2026-06-30T23:00:00-04:00');
    expect(formatLocalIso(at('2026-01-10T12:00:00Z'), 'America/St_Johns')).toBe('2026-01-10T08:30:00-03:30');
    expect(formatLocalIso(at('2026-07-01T12:00:00Z'), 'Australia/Lord_Howe')).toBe(
      '2026-07-01T22:30:00+10:30',
    );
    expect(formatLocalIso(at('2026-01-01T12:00:00Z'), 'Australia/Lord_Howe')).toBe(
      '2026-01-01T23:00:00+11:00',
    );
    expect(formatLocalIso(at('2026-01-01T12:00:00Z'), 'UTC')).toBe('2026-01-01T12:00:00+00:00');
  });

  it('tells the two passes of an overlap apart by their offset', () => {
    expect(formatLocalIso(at('2026-10-25T00:30:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:30:00+02:00');
    expect(formatLocalIso(at('2026-10-25T01:30:00Z'), 'Europe/Berlin')).toBe('2026-10-25T02:30:00+01:00');
  });

  it('toUtcIso drops millis and ends in Z', () => {
    expect(toUtcIso(at('2026-09-10T12:00:00.999Z'))).toBe('2026-09-10T12:00:00Z');
    expect(toUtcIso(at('1999-12-31T23:59:59Z'))).toBe('1999-12-31T23:59:59Z');
  });
});

describe('local dates', () => {
  it('localDateOf and wallMinutesOf read the wall clock of the zone', () => {
    expect(localDateOf(at('2026-09-10T22:30:00Z'), 'Europe/Berlin')).toBe('2026-09-11');
    expect(localDateOf(at('2026-09-10T22:30:00Z'), 'America/New_York')).toBe('2026-09-10');
    expect(wallMinutesOf(at('2026-09-10T22:30:00Z'), 'Europe/Berlin')).toBe(30);
    expect(wallMinutesOf(at('2026-01-10T20:00:00Z'), 'Asia/Kathmandu')).toBe(105);
  });

  it('todayIn uses the injected clock', () => {
    expect(todayIn('Asia/Kolkata', at('2026-09-10T18:29:00Z'))).toBe('2026-09-10');
    expect(todayIn('Asia/Kolkata', at('2026-09-10T18:30:00Z'))).toBe('2026-09-11');
  });

  it('addDays, daysBetween and weekdayOf follow the calendar', () => {
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-03-01', '2026-03-29')).toBe(28);
    expect(weekdayOf('2026-01-01')).toBe('thu');
    expect(weekdayOf('2026-09-10')).toBe('thu');
    expect(weekdayOf('2026-03-29')).toBe('sun');
  });

  it('canonicalZone accepts IANA names only, in the tz database spelling', () => {
    expect(canonicalZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalZone('europe/BERLIN')).toBe('Europe/Berlin');
    // Asked twice: the remembered answer is the same spelling.
    expect(canonicalZone('europe/BERLIN')).toBe('Europe/Berlin');
    // ICU calls this zone by its old alias, Asia/Katmandu: the name given is kept.
    expect(canonicalZone('Asia/Kathmandu')).toBe('Asia/Kathmandu');
    expect(canonicalZone('Mars/Olympus')).toBeUndefined();
    expect(canonicalZone('+02:00')).toBeUndefined();
    expect(canonicalZone('')).toBeUndefined();
  });
});
