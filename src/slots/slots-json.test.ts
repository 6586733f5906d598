import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TimeSlotsResponse } from './slots.service.js';
import { timeSlotsJson } from './slots-json.js';

const clock = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const seconds = fc.integer({ min: 0, max: 90_000 });
const instant = fc.constantFrom('2026-03-29T01:45:00Z', '2026-10-25T00:30:00Z', '2027-10-31T00:30:00Z');
const offset = fc.constantFrom('+02:00', '+01:00', '+05:45', '-03:30', '-05:00');
const interval = fc.record({
  start: clock,
  start_formatted: seconds,
  end: clock,
  end_formatted: seconds,
  start_time: instant,
  end_time: instant,
  start_offset: offset,
  end_offset: offset,
});
const slot = fc.record({
  start: clock,
  start_formatted: seconds,
  end: clock,
  end_formatted: seconds,
  quantity: fc.integer({ min: 0, max: 50 }),
  price: fc.double({ min: 0, max: 10_000, noNaN: true }),
  // Money formats carry non-ASCII signs and spaces ("€", "₹", NBSP), and any text may need escapes.
  price_formatted: fc.oneof(
    fc.constantFrom('€90.00', '90,00\u00a0€', '₹1,500.00', 'CHF 12.50', '"quoted"\\'),
    fc.string({ unit: 'binary' }),
  ),
  start_time: instant,
  end_time: instant,
  start_offset: offset,
  end_offset: offset,
});
const answer: fc.Arbitrary<TimeSlotsResponse> = fc.record({
  today: fc.constant('2026-11-22'),
  timezone: fc.constantFrom('Europe/Berlin', 'Asia/Kathmandu', 'America/St_Johns'),
  currency: fc.constantFrom('EUR', 'INR', 'CHF'),
  dates: fc.array(
    fc.record({
      date: fc.constantFrom('2026-03-29', '2026-10-25'),
      slots: fc.array(slot, { maxLength: 6 }),
      intervals: fc.array(interval, { maxLength: 3 }),
    }),
    { maxLength: 8 },
  ),
});

describe('timeSlotsJson', () => {
  it('writes the same bytes as JSON.stringify for any answer', () => {
    fc.assert(
      fc.property(answer, (body) => {
        expect(timeSlotsJson(body).equals(Buffer.from(JSON.stringify(body)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('writes an answer without days as an empty dates array', () => {
    const body = { today: '2026-11-22', timezone: 'UTC', currency: 'EUR', dates: [] };
    expect(JSON.parse(timeSlotsJson(body).toString('utf8'))).toEqual(body);
  });
});
