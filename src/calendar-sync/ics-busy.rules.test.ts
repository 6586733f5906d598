/**
 * Busy spans out of calendar objects, as CalDAV servers hand them over. Expected instants were
 * worked out by hand (and checked with Python's zoneinfo), not taken from the code: a weekly
 * 09:00 meeting keeps its wall time across the DST changes of two zones, Kathmandu's +05:45,
 * floating and all-day times in the staffer's zone, EXDATE, RECURRENCE-ID overrides, UNTIL,
 * transparent and cancelled events, an Outlook zone known only by its VTIMEZONE.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { busyInstances, type ExpandOptions, IcsUnreadable } from './ics-busy.rules.js';

const WIDE: ExpandOptions = {
  floatingZone: 'Europe/Berlin',
  from: Date.parse('2020-01-01T00:00:00Z'),
  to: Date.parse('2030-01-01T00:00:00Z'),
  allDayBlocks: true,
};

function cal(...events: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events, 'END:VCALENDAR', ''].join(
    '\r\n',
  );
}

function vevent(lines: string[]): string {
  return ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'].join('\r\n');
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
const starts = (ics: string, options: ExpandOptions = WIDE) =>
  busyInstances(ics, options).map((b) => iso(b.start));
const spans = (ics: string, options: ExpandOptions = WIDE) =>
  busyInstances(ics, options).map((b) => `${iso(b.start)}/${iso(b.end)}`);

describe('recurring events across DST changes', () => {
  const weekly = (zone: string, dtstart: string, count: number) =>
    cal(
      vevent([
        'UID:weekly',
        `DTSTART;TZID=${zone}:${dtstart}`,
        `DTEND;TZID=${zone}:${dtstart.slice(0, 9)}100000`,
        `RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=${count}`,
        'SUMMARY:Team',
      ]),
    );

  it.each([
    [
      'Europe/Berlin, March (CET to CEST on 29 March)',
      'Europe/Berlin',
      '20260323T090000',
      2,
      ['2026-03-23T08:00:00Z', '2026-03-30T07:00:00Z'],
    ],
    [
      'Europe/Berlin, October (CEST to CET on 25 October)',
      'Europe/Berlin',
      '20261019T090000',
      2,
      ['2026-10-19T07:00:00Z', '2026-10-26T08:00:00Z'],
    ],
    [
      'America/New_York, March (EST to EDT on 8 March)',
      'America/New_York',
      '20260302T090000',
      2,
      ['2026-03-02T14:00:00Z', '2026-03-09T13:00:00Z'],
    ],
    [
      'America/New_York, November (EDT to EST on 1 November)',
      'America/New_York',
      '20261026T090000',
      2,
      ['2026-10-26T13:00:00Z', '2026-11-02T14:00:00Z'],
    ],
  ])('%s', (_name, zone, dtstart, count, expected) => {
    expect(starts(weekly(zone, dtstart, count))).toEqual(expected);
    // One hour of wall time each, so one hour exactly on both sides of the change.
    for (const b of busyInstances(weekly(zone, dtstart, count), WIDE))
      expect(b.end - b.start).toBe(3_600_000);
  });

  it('the two zones of one calendar do not disturb each other', () => {
    const ics = cal(
      vevent([
        'UID:b',
        'DTSTART;TZID=Europe/Berlin:20261019T090000',
        'DTEND;TZID=Europe/Berlin:20261019T100000',
        'RRULE:FREQ=WEEKLY;COUNT=3',
      ]),
      vevent([
        'UID:n',
        'DTSTART;TZID=America/New_York:20261019T090000',
        'DTEND;TZID=America/New_York:20261019T100000',
        'RRULE:FREQ=WEEKLY;COUNT=3',
      ]),
    );
    expect(starts(ics)).toEqual([
      '2026-10-19T07:00:00Z',
      '2026-10-19T13:00:00Z',
      '2026-10-26T08:00:00Z',
      '2026-10-26T13:00:00Z',
      '2026-11-02T08:00:00Z',
      '2026-11-02T14:00:00Z',
    ]);
  });

  it('UNTIL in UTC ends the rule at that instant, read in the event zone', () => {
    const ics = cal(
      vevent([
        'UID:u',
        'DTSTART;TZID=America/New_York:20261026T090000',
        'DTEND;TZID=America/New_York:20261026T093000',
        // 13:00Z on 2 November is 08:00 EST: the 09:00 instance that day is after it.
        'RRULE:FREQ=DAILY;UNTIL=20261102T130000Z',
      ]),
    );
    const got = starts(ics);
    expect(got).toHaveLength(7);
    expect(got.at(-1)).toBe('2026-11-01T14:00:00Z');
  });
});

describe('zones, floating and all-day', () => {
  it('Asia/Kathmandu (+05:45)', () => {
    const ics = cal(
      vevent([
        'UID:k',
        'DTSTART;TZID=Asia/Kathmandu:20260701T090000',
        'DTEND;TZID=Asia/Kathmandu:20260701T100000',
      ]),
    );
    expect(spans(ics)).toEqual(['2026-07-01T03:15:00Z/2026-07-01T04:15:00Z']);
  });

  it('UTC times stay as they are', () => {
    const ics = cal(vevent(['UID:z', 'DTSTART:20260701T090000Z', 'DTEND:20260701T091500Z']));
    expect(spans(ics)).toEqual(['2026-07-01T09:00:00Z/2026-07-01T09:15:00Z']);
  });

  it('floating times are read in the staffer zone', () => {
    const ics = cal(vevent(['UID:f', 'DTSTART:20260701T090000', 'DTEND:20260701T100000']));
    expect(spans(ics, { ...WIDE, floatingZone: 'Europe/Berlin' })).toEqual([
      '2026-07-01T07:00:00Z/2026-07-01T08:00:00Z',
    ]);
    expect(spans(ics, { ...WIDE, floatingZone: 'America/New_York' })).toEqual([
      '2026-07-01T13:00:00Z/2026-07-01T14:00:00Z',
    ]);
  });

  it('an all-day event covers the local day, and blocks only when the setting says so', () => {
    const ics = cal(
      vevent(['UID:a', 'DTSTART;VALUE=DATE:20260701', 'DTEND;VALUE=DATE:20260702', 'SUMMARY:Holiday']),
    );
    const [one] = busyInstances(ics, WIDE);
    expect(`${iso(one!.start)}/${iso(one!.end)}`).toBe('2026-06-30T22:00:00Z/2026-07-01T22:00:00Z');
    expect(one!.allDay).toBe(true);
    expect(busyInstances(ics, { ...WIDE, allDayBlocks: false })).toEqual([]);
  });

  it('an all-day day of the autumn change lasts 25 hours', () => {
    const ics = cal(vevent(['UID:a', 'DTSTART;VALUE=DATE:20261025']));
    expect(spans(ics)).toEqual(['2026-10-24T22:00:00Z/2026-10-25T23:00:00Z']);
  });

  it('a wall time in the spring gap takes the offset before the gap', () => {
    const ics = cal(
      vevent([
        'UID:g',
        'DTSTART;TZID=Europe/Berlin:20260329T023000',
        'DTEND;TZID=Europe/Berlin:20260329T040000',
      ]),
    );
    expect(spans(ics)).toEqual(['2026-03-29T01:30:00Z/2026-03-29T02:00:00Z']);
  });

  it('a zone named only by its VTIMEZONE (Outlook) is read from it', () => {
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Microsoft//EN',
      'BEGIN:VTIMEZONE',
      'TZID:W. Europe Standard Time',
      'BEGIN:STANDARD',
      'DTSTART:16010101T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:16010101T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
      'END:DAYLIGHT',
      'END:VTIMEZONE',
      vevent([
        'UID:o',
        'DTSTART;TZID=W. Europe Standard Time:20260115T090000',
        'DTEND;TZID=W. Europe Standard Time:20260115T100000',
      ]),
      vevent([
        'UID:p',
        'DTSTART;TZID=W. Europe Standard Time:20260715T090000',
        'DTEND;TZID=W. Europe Standard Time:20260715T100000',
      ]),
      'END:VCALENDAR',
    ].join('\r\n');
    expect(starts(ics)).toEqual(['2026-01-15T08:00:00Z', '2026-07-15T07:00:00Z']);
  });
});

describe('exceptions and what does not block', () => {
  const master = [
    'UID:m',
    'DTSTART;TZID=Europe/Berlin:20260601T090000',
    'DTEND;TZID=Europe/Berlin:20260601T100000',
    'RRULE:FREQ=DAILY;COUNT=5',
    'SUMMARY:Standup',
  ];

  it('EXDATE removes an instance', () => {
    const ics = cal(vevent([...master, 'EXDATE;TZID=Europe/Berlin:20260602T090000,20260604T090000']));
    expect(starts(ics)).toEqual(['2026-06-01T07:00:00Z', '2026-06-03T07:00:00Z', '2026-06-05T07:00:00Z']);
  });

  it('EXDATE in UTC removes the same instance', () => {
    const ics = cal(vevent([...master, 'EXDATE:20260603T070000Z']));
    expect(starts(ics)).not.toContain('2026-06-03T07:00:00Z');
    expect(starts(ics)).toHaveLength(4);
  });

  it('a RECURRENCE-ID override moves its instance', () => {
    const ics = cal(
      vevent(master),
      vevent([
        'UID:m',
        'RECURRENCE-ID;TZID=Europe/Berlin:20260603T090000',
        'DTSTART;TZID=Europe/Berlin:20260603T150000',
        'DTEND;TZID=Europe/Berlin:20260603T153000',
        'SUMMARY:Standup (late)',
      ]),
    );
    const got = busyInstances(ics, WIDE);
    expect(got.map((b) => `${iso(b.start)}/${iso(b.end)}`)).toEqual([
      '2026-06-01T07:00:00Z/2026-06-01T08:00:00Z',
      '2026-06-02T07:00:00Z/2026-06-02T08:00:00Z',
      '2026-06-03T13:00:00Z/2026-06-03T13:30:00Z',
      '2026-06-04T07:00:00Z/2026-06-04T08:00:00Z',
      '2026-06-05T07:00:00Z/2026-06-05T08:00:00Z',
    ]);
    const moved = got.find((b) => b.title === 'Standup (late)')!;
    expect(iso(moved.recurrence!)).toBe('2026-06-03T07:00:00Z');
  });

  it('a cancelled or transparent override frees its instance', () => {
    const ics = cal(
      vevent(master),
      vevent([
        'UID:m',
        'RECURRENCE-ID;TZID=Europe/Berlin:20260602T090000',
        'DTSTART;TZID=Europe/Berlin:20260602T090000',
        'DTEND;TZID=Europe/Berlin:20260602T100000',
        'STATUS:CANCELLED',
      ]),
      vevent([
        'UID:m',
        'RECURRENCE-ID;TZID=Europe/Berlin:20260604T090000',
        'DTSTART;TZID=Europe/Berlin:20260604T090000',
        'DTEND;TZID=Europe/Berlin:20260604T100000',
        'TRANSP:TRANSPARENT',
      ]),
    );
    expect(starts(ics)).toEqual(['2026-06-01T07:00:00Z', '2026-06-03T07:00:00Z', '2026-06-05T07:00:00Z']);
  });

  it('transparent and cancelled events do not block', () => {
    const ics = cal(
      vevent(['UID:t', 'DTSTART:20260701T090000Z', 'DTEND:20260701T100000Z', 'TRANSP:TRANSPARENT']),
      vevent(['UID:c', 'DTSTART:20260701T110000Z', 'DTEND:20260701T120000Z', 'STATUS:CANCELLED']),
      vevent(['UID:o', 'DTSTART:20260701T130000Z', 'DTEND:20260701T140000Z', 'TRANSP:OPAQUE']),
    );
    expect(starts(ics)).toEqual(['2026-07-01T13:00:00Z']);
  });

  it('DURATION instead of DTEND; a timed event without end blocks nothing', () => {
    const ics = cal(
      vevent(['UID:d', 'DTSTART:20260701T090000Z', 'DURATION:PT45M']),
      vevent(['UID:e', 'DTSTART:20260701T120000Z']),
    );
    expect(spans(ics)).toEqual(['2026-07-01T09:00:00Z/2026-07-01T09:45:00Z']);
  });

  it('only instances overlapping the window come out; an endless rule stops at the window', () => {
    const ics = cal(
      vevent(['UID:x', 'DTSTART:20200106T090000Z', 'DTEND:20200106T100000Z', 'RRULE:FREQ=WEEKLY']),
    );
    const window = {
      ...WIDE,
      from: Date.parse('2026-07-01T00:00:00Z'),
      to: Date.parse('2026-07-15T00:00:00Z'),
    };
    expect(starts(ics, window)).toEqual(['2026-07-06T09:00:00Z', '2026-07-13T09:00:00Z']);
  });

  it('text that is not iCalendar is refused with a typed error', () => {
    expect(() => busyInstances('hello', WIDE)).toThrow(IcsUnreadable);
  });
});

describe('properties', () => {
  const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'UTC'];
  const wallClock = (ms: number, zone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(ms));
  const pad = (n: number) => String(n).padStart(2, '0');

  it('instances keep the DTSTART wall time in its zone and never fall on an EXDATE', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: 0, max: 364 }),
        // Hours 4..22 avoid the 02:00-03:00 transition hours, where a wall time may not exist.
        fc.integer({ min: 4, max: 22 }),
        fc.constantFrom(0, 15, 30, 45),
        fc.constantFrom('DAILY', 'WEEKLY'),
        fc.integer({ min: 1, max: 60 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { maxLength: 10 }),
        (zone, dayOfYear, hour, minute, freq, count, exIndexes) => {
          const first = new Date(Date.UTC(2026, 0, 1 + dayOfYear));
          const date = `${first.getUTCFullYear()}${pad(first.getUTCMonth() + 1)}${pad(first.getUTCDate())}`;
          const time = `${pad(hour)}${pad(minute)}00`;
          const step = freq === 'DAILY' ? 1 : 7;
          const exdates = exIndexes
            .filter((i) => i < count)
            .map((i) => {
              const d = new Date(first.getTime() + i * step * 86_400_000);
              return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${time}`;
            });
          const lines = [
            'UID:p',
            `DTSTART;TZID=${zone}:${date}T${time}`,
            `DURATION:PT30M`,
            `RRULE:FREQ=${freq};COUNT=${count}`,
          ];
          if (exdates.length > 0) lines.push(`EXDATE;TZID=${zone}:${exdates.join(',')}`);
          const got = busyInstances(cal(vevent(lines)), WIDE);
          expect(got).toHaveLength(count - exdates.length);
          for (const b of got) expect(wallClock(b.start, zone)).toBe(`${pad(hour)}:${pad(minute)}`);
          const localDates = new Set(
            got.map((b) =>
              new Intl.DateTimeFormat('en-CA', { timeZone: zone })
                .format(new Date(b.start))
                .replaceAll('-', ''),
            ),
          );
          for (const ex of exdates) expect(localDates.has(ex.slice(0, 8))).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });
});
