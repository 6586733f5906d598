import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openedStartsFor, searchSpan, suits, type WantedTimes } from './waitlist.rules.js';

// The rules of "new hours" (docs/waitlist.md "When a time frees"): the span to look for a time
// in, and which of the engine's free starts an entry may be offered. Instants written by hand:
// Berlin is UTC+1 in winter, UTC+2 in summer; clocks went back 2026-10-25 03:00 → 02:00 and
// forward 2026-03-29 02:00 → 03:00.
const BERLIN = 'Europe/Berlin';
const ms = (iso: string) => Date.parse(iso);
const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');
const wants = (windows: WantedTimes['windows'], stafferId: string | null = null): WantedTimes => ({
  anyTime: false,
  windows,
  stafferId,
});
const NONE = { held: new Set<number>(), offeredBefore: new Set<number>() };

describe('searchSpan: whole wanted dates of the location, within notice and horizon', () => {
  const earliest = ms('2026-09-01T09:00:00Z');
  const latest = ms('2026-11-30T08:00:00Z');
  const cases: [string, Pick<WantedTimes, 'anyTime' | 'windows'>, [string, string] | undefined][] = [
    [
      'one summer date: its Berlin midnight to the next',
      { anyTime: false, windows: [{ date: '2026-09-07', from: '10:00', to: '12:00' }] },
      ['2026-09-06T22:00:00Z', '2026-09-07T21:59:59.999Z'],
    ],
    [
      'the day clocks go back lasts 25 hours',
      { anyTime: false, windows: [{ date: '2026-10-25', from: '02:00', to: '03:00' }] },
      ['2026-10-24T22:00:00Z', '2026-10-25T22:59:59.999Z'],
    ],
    [
      'several dates: the first to the last, whatever their order',
      {
        anyTime: false,
        windows: [
          { date: '2026-10-02', from: '10:00', to: '11:00' },
          { date: '2026-09-20', from: '08:00', to: '09:00' },
        ],
      },
      ['2026-09-19T22:00:00Z', '2026-10-02T21:59:59.999Z'],
    ],
    [
      'a date already begun: from the earliest start',
      { anyTime: false, windows: [{ date: '2026-09-01', from: '08:00', to: '18:00' }] },
      ['2026-09-01T09:00:00Z', '2026-09-01T21:59:59.999Z'],
    ],
    [
      'a winter date cut at the horizon',
      { anyTime: false, windows: [{ date: '2026-11-30', from: '10:00', to: '12:00' }] },
      ['2026-11-29T23:00:00Z', '2026-11-30T08:00:00Z'],
    ],
    [
      'a past date: nothing',
      { anyTime: false, windows: [{ date: '2026-08-31', from: '10:00', to: '12:00' }] },
      undefined,
    ],
    [
      'beyond the horizon: nothing',
      { anyTime: false, windows: [{ date: '2026-12-01', from: '10:00', to: '12:00' }] },
      undefined,
    ],
    ['no windows and not any time: nothing', { anyTime: false, windows: [] }, undefined],
    [
      'any time: notice to horizon',
      { anyTime: true, windows: [] },
      ['2026-09-01T09:00:00Z', '2026-11-30T08:00:00Z'],
    ],
  ];
  it.each(cases)('%s', (_name, wanted, expected) => {
    const span = searchSpan(wanted, BERLIN, earliest, latest);
    expect(span && [iso(span.lower), iso(span.upper)]).toEqual(expected);
  });
});

describe('openedStartsFor: the free starts that suit, not held, not offered before', () => {
  const window = [{ date: '2026-09-07', from: '10:00', to: '12:00' }];
  const free = [
    '2026-09-07T07:45:00Z', // 09:45 local: before the window
    '2026-09-07T08:00:00Z', // 10:00
    '2026-09-07T08:15:00Z', // 10:15
    '2026-09-07T09:45:00Z', // 11:45
    '2026-09-07T10:00:00Z', // 12:00: the end, not in
  ].map(ms);
  const cases: [string, WantedTimes, typeof NONE, string[]][] = [
    [
      'in the window, earliest first',
      wants(window),
      NONE,
      ['2026-09-07T08:00:00Z', '2026-09-07T08:15:00Z', '2026-09-07T09:45:00Z'],
    ],
    [
      'a time held by an open offer is skipped',
      wants(window),
      { held: new Set([ms('2026-09-07T08:00:00Z')]), offeredBefore: new Set() },
      ['2026-09-07T08:15:00Z', '2026-09-07T09:45:00Z'],
    ],
    [
      'a time offered to this person before is skipped',
      wants(window),
      { held: new Set(), offeredBefore: new Set([ms('2026-09-07T08:15:00Z')]) },
      ['2026-09-07T08:00:00Z', '2026-09-07T09:45:00Z'],
    ],
    ['another staffer named: nothing', wants(window, 'ben'), NONE, []],
    [
      'this staffer named: as for anyone',
      wants(window, 'anna'),
      NONE,
      ['2026-09-07T08:00:00Z', '2026-09-07T08:15:00Z', '2026-09-07T09:45:00Z'],
    ],
    ['any time: every free start', { anyTime: true, windows: [], stafferId: null }, NONE, free.map(iso)],
  ];
  it.each(cases)('%s', (_name, wanted, skip, expected) => {
    expect(openedStartsFor(free, wanted, 'anna', BERLIN, skip).map(iso)).toEqual(expected);
  });

  it('matches wall time on the day clocks go back: 02:30 of both hours lies in 02:00–03:00', () => {
    const night = [
      '2026-10-25T00:00:00Z', // 02:00 summer time
      '2026-10-25T00:30:00Z', // 02:30 summer time
      '2026-10-25T01:30:00Z', // 02:30 winter time
      '2026-10-25T02:00:00Z', // 03:00 winter time: the end
    ].map(ms);
    const wanted = wants([{ date: '2026-10-25', from: '02:00', to: '03:00' }]);
    expect(openedStartsFor(night, wanted, 'anna', BERLIN, NONE).map(iso)).toEqual([
      '2026-10-25T00:00:00Z',
      '2026-10-25T00:30:00Z',
      '2026-10-25T01:30:00Z',
    ]);
  });

  it('finds nothing in the hour that does not exist on the day clocks go forward', () => {
    const morning = ['2026-03-29T00:45:00Z', '2026-03-29T01:00:00Z'].map(ms); // 01:45, 03:00 local
    const wanted = wants([{ date: '2026-03-29', from: '02:00', to: '03:00' }]);
    expect(openedStartsFor(morning, wanted, 'anna', BERLIN, NONE)).toEqual([]);
  });

  it('keeps exactly the starts that suit and are not skipped, in order (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: ms('2026-03-01T00:00:00Z'), max: ms('2026-12-01T00:00:00Z') }), {
          maxLength: 30,
        }),
        fc.constantFrom(BERLIN, 'America/New_York', 'Asia/Kathmandu'),
        fc.integer({ min: 0, max: 29 }),
        (raw, zone, skipAt) => {
          const starts = [...raw].sort((a, b) => a - b);
          const wanted: WantedTimes = { anyTime: true, windows: [], stafferId: null };
          const held = new Set(starts.slice(skipAt, skipAt + 1));
          const got = openedStartsFor(starts, wanted, 'anna', zone, { held, offeredBefore: new Set() });
          expect(got).toEqual(starts.filter((s) => !held.has(s) && suits(wanted, s, 'anna', zone)));
          expect([...got].sort((a, b) => a - b)).toEqual(got);
        },
      ),
    );
  });

  it('a span always lies within notice and horizon and covers every start that suits (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: ms('2026-01-01T00:00:00Z'), max: ms('2027-01-01T00:00:00Z') }),
        fc.constantFrom(BERLIN, 'America/New_York', 'Australia/Lord_Howe'),
        fc.integer({ min: 0, max: 40 * 24 * 60 }),
        (start, zone, minutes) => {
          const earliest = ms('2026-01-01T00:00:00Z');
          const latest = ms('2027-01-01T00:00:00Z');
          const date = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(start + minutes * 60_000);
          const wanted = wants([{ date, from: '00:00', to: '23:59' }]);
          const span = searchSpan(wanted, zone, earliest, latest);
          const t = start + minutes * 60_000;
          if (!span) return;
          expect(span.lower).toBeGreaterThanOrEqual(earliest);
          expect(span.upper).toBeLessThanOrEqual(latest);
          if (suits(wanted, t, 'anna', zone) && t >= earliest && t <= latest) {
            expect(t).toBeGreaterThanOrEqual(span.lower);
            expect(t).toBeLessThanOrEqual(span.upper);
          }
        },
      ),
    );
  });
});
