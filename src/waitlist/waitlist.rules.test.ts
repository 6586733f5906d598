import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkWindows,
  claimable,
  fillsAutomatically,
  heldUntil,
  nextInLine,
  suits,
  type WantedTimes,
  waitlistSettingsOf,
} from './waitlist.rules.js';

const BERLIN = 'Europe/Berlin';
const wants = (windows: WantedTimes['windows'], stafferId: string | null = null): WantedTimes => ({
  anyTime: false,
  windows,
  stafferId,
});
const ms = (iso: string) => Date.parse(iso);

describe('suits: a start in a wanted window, in wall time of the location', () => {
  // Instants written by hand: Berlin is UTC+1 in winter, UTC+2 in summer; clocks went forward
  // 2026-03-29 02:00 → 03:00 and back 2026-10-25 03:00 → 02:00.
  const cases: [string, WantedTimes['windows'], string, string, boolean][] = [
    [
      'summer: 14:00 local in 14:00–16:00',
      [{ date: '2026-07-10', from: '14:00', to: '16:00' }],
      BERLIN,
      '2026-07-10T12:00:00Z',
      true,
    ],
    [
      'summer: 16:00 local is the end, not in',
      [{ date: '2026-07-10', from: '14:00', to: '16:00' }],
      BERLIN,
      '2026-07-10T14:00:00Z',
      false,
    ],
    [
      'summer: 13:59 local before the start',
      [{ date: '2026-07-10', from: '14:00', to: '16:00' }],
      BERLIN,
      '2026-07-10T11:59:00Z',
      false,
    ],
    [
      'winter: 14:00 local is 13:00 UTC',
      [{ date: '2026-01-10', from: '14:00', to: '16:00' }],
      BERLIN,
      '2026-01-10T13:00:00Z',
      true,
    ],
    [
      'winter: 12:00 UTC is 13:00 local, outside',
      [{ date: '2026-01-10', from: '14:00', to: '16:00' }],
      BERLIN,
      '2026-01-10T12:00:00Z',
      false,
    ],
    [
      'another day is not in',
      [{ date: '2026-07-11', from: '00:00', to: '23:59' }],
      BERLIN,
      '2026-07-10T12:00:00Z',
      false,
    ],
    [
      'local date, not UTC date: 00:30 local is the day before in UTC',
      [{ date: '2026-07-11', from: '00:00', to: '01:00' }],
      BERLIN,
      '2026-07-10T22:30:00Z',
      true,
    ],
    [
      'spring forward: 03:30 local (01:30 UTC) in 03:00–04:00',
      [{ date: '2026-03-29', from: '03:00', to: '04:00' }],
      BERLIN,
      '2026-03-29T01:30:00Z',
      true,
    ],
    [
      'spring forward: 01:30 local (00:30 UTC) not in the missing hour 02:00–03:00',
      [{ date: '2026-03-29', from: '02:00', to: '03:00' }],
      BERLIN,
      '2026-03-29T00:30:00Z',
      false,
    ],
    [
      'spring forward: 01:30 UTC is 03:30 local, not in 02:00–03:00',
      [{ date: '2026-03-29', from: '02:00', to: '03:00' }],
      BERLIN,
      '2026-03-29T01:30:00Z',
      false,
    ],
    [
      'fall back: first 02:30 (00:30 UTC) in 02:00–03:00',
      [{ date: '2026-10-25', from: '02:00', to: '03:00' }],
      BERLIN,
      '2026-10-25T00:30:00Z',
      true,
    ],
    [
      'fall back: second 02:30 (01:30 UTC) in 02:00–03:00 too',
      [{ date: '2026-10-25', from: '02:00', to: '03:00' }],
      BERLIN,
      '2026-10-25T01:30:00Z',
      true,
    ],
    [
      'fall back: 02:00 UTC is 03:00 local, out',
      [{ date: '2026-10-25', from: '02:00', to: '03:00' }],
      BERLIN,
      '2026-10-25T02:00:00Z',
      false,
    ],
    [
      'Kolkata +05:30: 09:00 local is 03:30 UTC',
      [{ date: '2026-07-10', from: '09:00', to: '09:30' }],
      'Asia/Kolkata',
      '2026-07-10T03:30:00Z',
      true,
    ],
    [
      'Kathmandu +05:45: 09:00 UTC is 14:45 local',
      [{ date: '2026-07-10', from: '14:45', to: '15:00' }],
      'Asia/Kathmandu',
      '2026-07-10T09:00:00Z',
      true,
    ],
    [
      'second of two windows',
      [
        { date: '2026-07-09', from: '09:00', to: '10:00' },
        { date: '2026-07-10', from: '09:00', to: '10:00' },
      ],
      BERLIN,
      '2026-07-10T07:15:00Z',
      true,
    ],
  ];
  it.each(cases)('%s', (_name, windows, zone, start, expected) => {
    expect(suits(wants(windows), ms(start), 'anna', zone)).toBe(expected);
  });

  it('any time suits every start; a staffer entry only its staffer', () => {
    expect(
      suits({ anyTime: true, windows: [], stafferId: null }, ms('2026-07-10T03:00:00Z'), 'ben', BERLIN),
    ).toBe(true);
    expect(
      suits({ anyTime: true, windows: [], stafferId: 'anna' }, ms('2026-07-10T12:00:00Z'), 'ben', BERLIN),
    ).toBe(false);
    expect(
      suits({ anyTime: true, windows: [], stafferId: 'anna' }, ms('2026-07-10T12:00:00Z'), 'anna', BERLIN),
    ).toBe(true);
  });

  it('property: a start suits a one-hour window exactly when its local hour is the window hour', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.parse('2026-01-01T00:00:00Z'), max: Date.parse('2027-01-01T00:00:00Z') }),
        fc.constantFrom(BERLIN, 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu'),
        fc.integer({ min: 0, max: 22 }),
        (start, zone, hour) => {
          const parts = new Intl.DateTimeFormat('en-CA', {
            timeZone: zone,
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            hourCycle: 'h23',
          }).formatToParts(new Date(start));
          const get = (type: string) => parts.find((p) => p.type === type)!.value;
          const date = `${get('year')}-${get('month')}-${get('day')}`;
          const hh = (n: number) => String(n).padStart(2, '0');
          const window = { date, from: `${hh(hour)}:00`, to: `${hh(hour + 1)}:00` };
          expect(suits(wants([window]), start, 'x', zone)).toBe(Number(get('hour')) === hour);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('nextInLine', () => {
  const line = [
    { id: 'c', joinedAt: 3 },
    { id: 'a', joinedAt: 1 },
    { id: 'b2', joinedAt: 2 },
    { id: 'b1', joinedAt: 2 },
  ];
  it('one at a time: the first to join', () => {
    expect(nextInLine(line, 'one').map((e) => e.id)).toEqual(['a']);
  });
  it('all at once: everyone, oldest first, ties by id', () => {
    expect(nextInLine(line, 'all').map((e) => e.id)).toEqual(['a', 'b1', 'b2', 'c']);
  });
  it('nobody waiting: nobody', () => {
    expect(nextInLine([], 'one')).toEqual([]);
  });
  it('property: the one chosen joined no later than anyone else, whatever the order given', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ id: fc.uuid(), joinedAt: fc.integer({ min: 0, max: 50 }) }), {
          minLength: 1,
          selector: (e) => e.id,
        }),
        (entries) => {
          const [first] = nextInLine(entries, 'one');
          for (const e of entries) expect(first!.joinedAt).toBeLessThanOrEqual(e.joinedAt);
          expect(nextInLine(entries, 'all')).toHaveLength(entries.length);
        },
      ),
    );
  });
});

describe('holds and settings', () => {
  it('an offer holds for the minutes set, claimable until just before the end', () => {
    const made = ms('2026-07-10T10:00:00Z');
    const until = heldUntil(made, 30);
    expect(until).toBe(ms('2026-07-10T10:30:00Z'));
    expect(claimable({ state: 'open', heldUntil: until }, ms('2026-07-10T10:29:59Z'))).toBe(true);
    expect(claimable({ state: 'open', heldUntil: until }, ms('2026-07-10T10:30:00Z'))).toBe(false);
    expect(claimable({ state: 'claimed', heldUntil: until }, made)).toBe(false);
  });
  it('settings: defaults one at a time, 30 minutes, no automatic fill; odd values fall back', () => {
    expect(waitlistSettingsOf({})).toEqual({ offerMode: 'one', holdMinutes: 30, autoFillGroupSeats: false });
    expect(waitlistSettingsOf({ offer_mode: 'all', hold_minutes: 45, auto_fill_group_seats: true })).toEqual({
      offerMode: 'all',
      holdMinutes: 45,
      autoFillGroupSeats: true,
    });
    expect(waitlistSettingsOf({ offer_mode: 'many', hold_minutes: 2, auto_fill_group_seats: 'yes' })).toEqual(
      {
        offerMode: 'one',
        holdMinutes: 30,
        autoFillGroupSeats: false,
      },
    );
    expect(waitlistSettingsOf({ hold_minutes: 30.5 })).toEqual({
      offerMode: 'one',
      holdMinutes: 30,
      autoFillGroupSeats: false,
    });
  });
  it('fills automatically only group classes, and only when switched on', () => {
    const on = waitlistSettingsOf({ auto_fill_group_seats: true });
    const off = waitlistSettingsOf({});
    expect(fillsAutomatically(on, 3)).toBe(true);
    expect(fillsAutomatically(on, 2)).toBe(true);
    expect(fillsAutomatically(on, 1)).toBe(false);
    expect(fillsAutomatically(off, 3)).toBe(false);
  });
});

describe('checkWindows', () => {
  it('keeps good windows, names each bad field', () => {
    const { windows, errors } = checkWindows(
      [
        { date: '2026-07-10', from: '09:00', to: '12:00' },
        { date: '2026-02-30', from: '09:00', to: '12:00' },
        { date: '2026-07-11', from: '12:00', to: '09:00' },
        { date: '2026-07-12', from: '9:00', to: '12:00' },
      ],
      false,
    );
    expect(windows).toEqual([{ date: '2026-07-10', from: '09:00', to: '12:00' }]);
    expect(errors).toEqual({
      'windows.1.date': ['The date must be a date (YYYY-MM-DD).'],
      'windows.2.to': ['The end must be after the start.'],
      'windows.3.from': ['The time must be HH:MM.'],
    });
  });
  it('none and not any time: refused; six: refused; any time: no windows kept', () => {
    expect(checkWindows([], false).errors).toEqual({
      windows: ['Give at least one wanted time, or any_time.'],
    });
    const six = Array.from({ length: 6 }, (_, i) => ({ date: `2026-07-1${i}`, from: '09:00', to: '10:00' }));
    expect(checkWindows(six, false).errors).toEqual({ windows: ['At most 5 wanted times.'] });
    expect(checkWindows([{ date: '2026-07-10', from: '09:00', to: '10:00' }], true)).toEqual({
      windows: [],
      errors: {},
    });
  });
});
