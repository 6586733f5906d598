import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assignLanes,
  axisMinutes,
  bookingsByUnit,
  calendarDay,
  hourMarks,
  place,
  resourceColumns,
  visibleWindow,
} from './calendar-layout.rules.js';

const iso = (s: string) => Date.parse(s);

describe('calendarDay', () => {
  // Lengths and change bands from the zones' published rules, not from the code.
  it.each([
    // zone, date, length in minutes, shift, band on the wall clock
    ['Europe/Berlin', '2026-03-29', 1380, 60, '02:00-03:00'],
    ['Europe/Berlin', '2026-10-25', 1500, -60, '02:00-03:00'],
    ['America/New_York', '2026-03-08', 1380, 60, '02:00-03:00'],
    ['America/New_York', '2026-11-01', 1500, -60, '01:00-02:00'],
    ['America/St_Johns', '2026-03-08', 1380, 60, '02:00-03:00'],
    ['Australia/Lord_Howe', '2026-04-05', 1470, -30, '01:30-02:00'],
    ['Australia/Lord_Howe', '2026-10-04', 1410, 30, '02:00-02:30'],
    ['Asia/Kathmandu', '2026-03-29', 1440, 0, ''],
    ['Asia/Kolkata', '2026-10-25', 1440, 0, ''],
    ['Pacific/Chatham', '2026-04-05', 1500, -60, '02:45-03:45'],
  ])('%s on %s lasts %i minutes', (zone, date, length, shift, band) => {
    const day = calendarDay(zone, date);
    expect(day.lengthMinutes).toBe(length);
    if (shift === 0) {
      expect(day.change).toBeUndefined();
      return;
    }
    expect(day.change?.shiftMinutes).toBe(shift);
    const hhmm = (m: number) =>
      `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    expect(`${hhmm(day.change!.wallFrom)}-${hhmm(day.change!.wallTo)}`).toBe(band);
  });

  it('starts at local midnight, or at the first instant after it where midnight is skipped', () => {
    expect(calendarDay('Europe/Berlin', '2026-06-01').startMs).toBe(iso('2026-05-31T22:00:00Z'));
    // Santiago springs forward at 00:00 (to 01:00) on 2026-09-06: the day starts at 01:00 -03.
    expect(calendarDay('America/Santiago', '2026-09-06').startMs).toBe(iso('2026-09-06T04:00:00Z'));
  });
});

describe('axis positions', () => {
  it('counts elapsed minutes on the one-day axis and wall minutes on the week axis', () => {
    const spring = calendarDay('Europe/Berlin', '2026-03-29');
    const t = iso('2026-03-29T02:00:00Z'); // 04:00 CEST: 3 hours after midnight have passed
    expect(axisMinutes('elapsed', 'Europe/Berlin', spring, t)).toBe(180);
    expect(axisMinutes('wall', 'Europe/Berlin', spring, t)).toBe(240);
    const fall = calendarDay('Europe/Berlin', '2026-10-25');
    const second = iso('2026-10-25T01:30:00Z'); // 02:30 CET, the second 02:30
    expect(axisMinutes('elapsed', 'Europe/Berlin', fall, second)).toBe(210);
    expect(axisMinutes('wall', 'Europe/Berlin', fall, second)).toBe(150);
  });

  it('labels the hours of a 25-hour day with the repeated hour’s offsets', () => {
    const day = calendarDay('America/New_York', '2026-11-01');
    const marks = hourMarks('elapsed', 'America/New_York', day, 0, day.lengthMinutes);
    expect(marks.map((m) => m.label).slice(0, 4)).toEqual(['00:00', '01:00 -04:00', '01:00 -05:00', '02:00']);
    expect(marks).toHaveLength(25);
  });

  it('labels Kathmandu’s hours on its own clock (UTC+05:45)', () => {
    const day = calendarDay('Asia/Kathmandu', '2026-05-04');
    expect(day.startMs).toBe(iso('2026-05-03T18:15:00Z'));
    expect(hourMarks('elapsed', 'Asia/Kathmandu', day, 540, 600)[0]!.label).toBe('09:00');
  });

  it('shows whole hours around everything given, clamped to the day, 08-18 when empty', () => {
    const day = calendarDay('Europe/Berlin', '2026-06-01');
    expect(visibleWindow('elapsed', 'Europe/Berlin', [day], [])).toEqual({ from: 480, to: 1080 });
    const spans = [
      { start: iso('2026-06-01T07:10:00Z'), end: iso('2026-06-01T08:00:00Z') }, // 09:10-10:00
      { start: iso('2026-06-01T19:00:00Z'), end: iso('2026-06-02T01:00:00Z') }, // 21:00-03:00 next day
    ];
    expect(visibleWindow('elapsed', 'Europe/Berlin', [day], spans)).toEqual({ from: 540, to: 1440 });
  });
});

describe('place and lanes', () => {
  it('clips a span to the window and the day', () => {
    const day = calendarDay('Europe/Berlin', '2026-06-01');
    const window = { from: 480, to: 1080 };
    expect(
      place('elapsed', 'Europe/Berlin', day, window, {
        start: iso('2026-06-01T05:00:00Z'),
        end: iso('2026-06-01T07:30:00Z'),
      }),
    ).toEqual({ top: 0, height: 90 });
    expect(
      place('elapsed', 'Europe/Berlin', day, window, {
        start: iso('2026-06-01T17:00:00Z'),
        end: iso('2026-06-01T18:00:00Z'),
      }),
    ).toBeUndefined();
  });

  it('puts overlapping blocks side by side and never two in one lane at once', () => {
    const block = fc.record({
      top: fc.integer({ min: 0, max: 1400 }),
      height: fc.integer({ min: 5, max: 240 }),
    });
    fc.assert(
      fc.property(fc.array(block, { maxLength: 40 }), (blocks) => {
        const laid = assignLanes(blocks.map((b) => ({ ...b, lane: -1, lanes: 0 })));
        expect(laid).toHaveLength(blocks.length);
        for (const a of laid) {
          expect(a.lane).toBeGreaterThanOrEqual(0);
          expect(a.lane).toBeLessThan(a.lanes);
          for (const b of laid) {
            if (a === b) continue;
            const overlap = a.top < b.top + b.height && b.top < a.top + a.height;
            if (overlap) {
              expect(a.lane).not.toBe(b.lane);
              // One cluster, one width.
              expect(a.lanes).toBe(b.lanes);
            }
          }
        }
      }),
    );
  });

  it('keeps every placed span inside the window, on any day of any zone', () => {
    const zones = [
      'Europe/Berlin',
      'America/New_York',
      'Australia/Lord_Howe',
      'Asia/Kathmandu',
      'Pacific/Chatham',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 729 }),
        fc.integer({ min: -600, max: 1600 }),
        fc.integer({ min: 1, max: 600 }),
        fc.constantFrom('elapsed' as const, 'wall' as const),
        (zone, dayIndex, startMinute, minutes, mode) => {
          const date = new Date(Date.UTC(2026, 0, 1) + dayIndex * 86_400_000).toISOString().slice(0, 10);
          const day = calendarDay(zone, date);
          const window = { from: 0, to: mode === 'elapsed' ? Math.ceil(day.lengthMinutes / 60) * 60 : 1440 };
          const start = day.startMs + startMinute * 60_000;
          const placed = place(mode, zone, day, window, { start, end: start + minutes * 60_000 });
          if (!placed) return;
          expect(placed.top).toBeGreaterThanOrEqual(0);
          expect(placed.height).toBeGreaterThan(0);
          expect(placed.top + placed.height).toBeLessThanOrEqual(window.to - window.from);
          if (mode === 'elapsed') expect(placed.height).toBeLessThanOrEqual(minutes);
        },
      ),
    );
  });
});

describe('resourceColumns (the view by resource)', () => {
  const unit = (id: string, type: string, name: string) => ({ id, type, name });

  it('groups the columns by type, then orders them by name, the id breaking ties', () => {
    const columns = resourceColumns([
      unit('u5', 'room', 'Room 2'),
      unit('u1', 'chair', 'Chair B'),
      unit('u4', 'room', 'Room 1'),
      unit('u3', 'chair', 'Chair A'),
      unit('u7', 'wash-station', 'Basin'),
      unit('u6', 'room', 'Room 1'),
    ]);
    expect(columns.map((c) => c.id)).toEqual(['u3', 'u1', 'u4', 'u6', 'u5', 'u7']);
  });

  it('orders by code point, so every panel language sees one order', () => {
    expect(
      resourceColumns([unit('a', 'room', 'Zimmer'), unit('b', 'room', 'Ärztezimmer')]).map((c) => c.name),
    ).toEqual(['Zimmer', 'Ärztezimmer']);
  });

  it('does not reorder what it is given', () => {
    const given = [unit('b', 'room', 'B'), unit('a', 'room', 'A')];
    resourceColumns(given);
    expect(given.map((u) => u.id)).toEqual(['b', 'a']);
  });
});

describe('bookingsByUnit', () => {
  const columns = [{ id: 'room1' }, { id: 'room2' }, { id: 'kit' }];

  it('puts a booking in the column of every unit it holds, and one holding none in no column', () => {
    const massage = { id: 'm', unit_ids: ['room2', 'kit'] };
    const facial = { id: 'f', unit_ids: ['room1'] };
    const haircut = { id: 'h', unit_ids: [] };
    const byUnit = bookingsByUnit(columns, [massage, facial, haircut]);
    expect([...byUnit.entries()].map(([unit, list]) => [unit, list.map((b) => b.id)])).toEqual([
      ['room1', ['f']],
      ['room2', ['m']],
      ['kit', ['m']],
    ]);
  });

  it('leaves out units without a column (archived) and counts a unit named twice once', () => {
    const byUnit = bookingsByUnit(columns, [
      { id: 'old', unit_ids: ['archived-room'] },
      { id: 'twice', unit_ids: ['room1', 'room1'] },
    ]);
    expect(byUnit.get('room1')!.map((b) => b.id)).toEqual(['twice']);
    expect([...byUnit.values()].flat().map((b) => b.id)).toEqual(['twice']);
    expect(byUnit.has('archived-room')).toBe(false);
  });

  it('every booking is in exactly as many columns as the distinct live units it holds (property)', () => {
    const ids = ['room1', 'room2', 'kit', 'gone'];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...ids), { maxLength: 4 }), { maxLength: 30 }),
        (held) => {
          const bookings = held.map((unit_ids, i) => ({ id: String(i), unit_ids }));
          const byUnit = bookingsByUnit(columns, bookings);
          for (const booking of bookings) {
            const live = new Set(booking.unit_ids.filter((u) => u !== 'gone'));
            const inColumns = [...byUnit.entries()].filter(([, list]) => list.includes(booking));
            expect(inColumns.map(([unit]) => unit).sort()).toEqual([...live].sort());
          }
        },
      ),
    );
  });
});
