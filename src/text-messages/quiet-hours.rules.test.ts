import { describe, expect, it } from 'vitest';
import { DEFAULT_QUIET_HOURS, quietHoursOf, reminderSendTime } from './quiet-hours.rules.js';

const ms = (iso: string) => Date.parse(iso);
const iso = (epoch: number) => new Date(epoch).toISOString().replace('.000Z', 'Z');
const FAR = ms('2030-01-01T00:00:00Z');

describe('quiet hours', () => {
  it('reads the stored form and falls back to 21:00-08:00', () => {
    expect(quietHoursOf(null)).toEqual({ start: 1260, end: 480 });
    expect(quietHoursOf('22:30-07:15')).toEqual({ start: 1350, end: 435 });
    expect(quietHoursOf('nonsense')).toEqual(DEFAULT_QUIET_HOURS);
    expect(quietHoursOf('25:00-07:00')).toEqual(DEFAULT_QUIET_HOURS);
  });

  // Each row: zone, reminder due (UTC), expected send time (UTC); the booking starts far later.
  // Expected instants are worked out by hand from the zone's offsets on that date.
  it.each([
    // Berlin summer (+02:00): 20:59 local is before quiet hours, 21:00 inside.
    ['Europe/Berlin', '2026-07-01T18:59:00Z', '2026-07-01T18:59:00Z'],
    ['Europe/Berlin', '2026-07-01T19:00:00Z', '2026-07-02T06:00:00Z'],
    ['Europe/Berlin', '2026-07-01T23:30:00Z', '2026-07-02T06:00:00Z'], // 01:30 local
    ['Europe/Berlin', '2026-07-02T05:59:00Z', '2026-07-02T06:00:00Z'], // 07:59 local
    ['Europe/Berlin', '2026-07-02T06:00:00Z', '2026-07-02T06:00:00Z'], // 08:00 local: quiet hours over
    // Berlin, spring forward night (29 March 2026, 02:00 → 03:00): 22:00 CET on the 28th → 08:00 CEST.
    ['Europe/Berlin', '2026-03-28T21:00:00Z', '2026-03-29T06:00:00Z'],
    // Berlin, fall back night (25 October 2026, 03:00 → 02:00): 23:00 CEST on the 24th → 08:00 CET.
    ['Europe/Berlin', '2026-10-24T21:00:00Z', '2026-10-25T07:00:00Z'],
    // Inside the repeated hour (02:30 CET, the second time) → 08:00 CET.
    ['Europe/Berlin', '2026-10-25T01:30:00Z', '2026-10-25T07:00:00Z'],
    // New York, spring forward (8 March 2026): 23:00 EST on the 7th → 08:00 EDT (12:00Z).
    ['America/New_York', '2026-03-08T04:00:00Z', '2026-03-08T12:00:00Z'],
    // New York, fall back (1 November 2026): 22:00 EDT on the 31st → 08:00 EST (13:00Z).
    ['America/New_York', '2026-11-01T02:00:00Z', '2026-11-01T13:00:00Z'],
    // Sydney, DST ends 5 April 2026 (03:00 AEDT → 02:00 AEST): 21:30 AEDT on the 4th → 08:00 AEST.
    ['Australia/Sydney', '2026-04-04T10:30:00Z', '2026-04-04T22:00:00Z'],
    // Kolkata, no DST, +05:30: 06:00 local → 08:00 local.
    ['Asia/Kolkata', '2026-07-01T00:30:00Z', '2026-07-01T02:30:00Z'],
  ])('%s: due %s goes at %s', (zone, due, expected) => {
    expect(iso(reminderSendTime(ms(due), FAR, 0, zone, DEFAULT_QUIET_HOURS))).toBe(expected);
  });

  it('quiet hours ending in a DST gap end when the clock jumps', () => {
    // 01:00-02:30 in Berlin on 29 March 2026: 02:30 does not exist; the clock jumps at 01:00Z.
    const quiet = quietHoursOf('01:00-02:30');
    expect(iso(reminderSendTime(ms('2026-03-29T00:15:00Z'), FAR, 0, 'Europe/Berlin', quiet))).toBe(
      '2026-03-29T01:00:00Z',
    );
  });

  it('quiet hours within one day (13:00-14:00) hold too', () => {
    const quiet = quietHoursOf('13:00-14:00');
    expect(iso(reminderSendTime(ms('2026-07-01T11:30:00Z'), FAR, 0, 'Europe/Berlin', quiet))).toBe(
      '2026-07-01T12:00:00Z',
    );
    expect(iso(reminderSendTime(ms('2026-07-01T12:30:00Z'), FAR, 0, 'Europe/Berlin', quiet))).toBe(
      '2026-07-01T12:30:00Z',
    );
  });

  it('a booking starting before quiet hours end gets its reminder before they began', () => {
    // Due 23:00 Berlin (21:00Z) for a 07:30 start: 08:00 would be too late; 20:59 local instead.
    const start = ms('2026-07-02T05:30:00Z');
    expect(
      iso(reminderSendTime(ms('2026-07-01T21:00:00Z'), start, 0, 'Europe/Berlin', DEFAULT_QUIET_HOURS)),
    ).toBe('2026-07-01T18:59:00Z');
    // Booked at 22:00 local for the next morning: that moment has passed, so it goes now.
    const now = ms('2026-07-01T20:00:00Z');
    expect(
      iso(reminderSendTime(ms('2026-07-01T21:00:00Z'), start, now, 'Europe/Berlin', DEFAULT_QUIET_HOURS)),
    ).toBe('2026-07-01T20:00:00Z');
  });
});
