/**
 * Outside busy time (a staffer's own calendar, src/calendar-sync) as an engine input: it removes
 * the slots and free intervals it overlaps, the new booking's buffers stay clear of it, a create
 * at such a time is refused by the same predicate, and a group session others may join stays
 * joinable. Expected slots are worked out by hand (Berlin, July: UTC+2).
 */
import { describe, expect, it } from 'vitest';
import { checkBookable, computeSlots } from './compute-slots.js';
import type { SlotQuery, StafferInput } from './types.js';

const nineToOne = { from: '09:00', to: '13:00' };
const base = (staffers: StafferInput[], buffers = { before: 0, after: 0 }): SlotQuery => ({
  locationZone: 'Europe/Berlin',
  answerZone: 'Europe/Berlin',
  service: {
    id: 'svc',
    durationMinutes: 60,
    capacity: 1,
    bufferBeforeMinutes: buffers.before,
    bufferAfterMinutes: buffers.after,
    priceMinor: 1,
  },
  rules: { slotStepMinutes: 30, minNoticeMinutes: 0, horizonDays: 365 },
  staffers,
  now: Date.parse('2026-06-01T00:00:00Z'),
  priceFormatted: '1',
  rangeStart: '2026-07-01',
  rangeEnd: '2026-07-01',
});
const anna = (busy?: StafferInput['busy']): StafferInput => ({
  stafferId: 'anna',
  schedule: { weekly: { wed: [nineToOne] }, breaks: {}, overrides: [] },
  occupancies: [],
  busy,
});
// 10:00-11:00 Berlin summer time.
const meeting = { start: Date.parse('2026-07-01T08:00:00Z'), end: Date.parse('2026-07-01T09:00:00Z') };
const startsOf = (q: SlotQuery) => computeSlots(q)[0]!.slots.map((s) => s.start);

describe('outside busy time in the slot engine', () => {
  it('removes every start whose hour overlaps it, and nothing else', () => {
    expect(startsOf(base([anna()]))).toEqual(['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '12:00']);
    expect(startsOf(base([anna([meeting])]))).toEqual(['09:00', '11:00', '11:30', '12:00']);
  });

  it('keeps the new booking’s buffers clear of it', () => {
    // 15 minutes after: a 09:00 booking would run its buffer to 10:15, into the meeting (buffers
    // may reach past working hours, so 12:00 stays).
    expect(startsOf(base([anna([meeting])], { before: 0, after: 15 }))).toEqual(['11:00', '11:30', '12:00']);
    // 15 minutes before: 11:00 would need 10:45 clear.
    expect(startsOf(base([anna([meeting])], { before: 15, after: 0 }))).toEqual(['09:00', '11:30', '12:00']);
  });

  it('the free intervals leave it out', () => {
    const [day] = computeSlots(base([anna([meeting])]));
    expect(day!.intervals.map((i) => `${i.start}-${i.end}`)).toEqual(['09:00-10:00', '11:00-13:00']);
  });

  it('a create at a blocked time is refused by the same predicate; another staffer takes it', () => {
    const q = base([anna([meeting])]);
    expect(checkBookable(q, Date.parse('2026-07-01T08:30:00Z'), 'anna')).toEqual({
      ok: false,
      reason: 'no_free_staffer',
    });
    const ben: StafferInput = { ...anna(), stafferId: 'ben' };
    expect(checkBookable(base([anna([meeting]), ben]), Date.parse('2026-07-01T08:30:00Z'))).toEqual({
      ok: true,
      staffers: [{ stafferId: 'ben', freeSeats: 1 }],
    });
  });

  it('an empty or reversed span blocks nothing', () => {
    expect(startsOf(base([anna([{ start: meeting.end, end: meeting.start }])]))).toHaveLength(7);
  });
});
