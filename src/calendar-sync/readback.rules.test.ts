import { describe, expect, it } from 'vitest';
import { outsideChangeOf } from './readback.rules.js';

const event = (lines: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    'UID:kairos-booking-1@book.example.com',
    'DTSTAMP:20260801T000000Z',
    ...lines,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

const booking = {
  start: Date.parse('2026-09-10T08:00:00Z'),
  end: Date.parse('2026-09-10T09:00:00Z'),
  canceled: false,
};
const utc = event(['DTSTART:20260910T080000Z', 'DTEND:20260910T090000Z']);

describe('outsideChangeOf', () => {
  it('takes an object with the ETag Kairos stored for its own, whatever it says', () => {
    const moved = event(['DTSTART:20260910T130000Z', 'DTEND:20260910T140000Z']);
    expect(
      outsideChangeOf({ etag: '"a"' }, { etag: '"a"', ics: moved }, booking, 'Europe/Berlin'),
    ).toBeNull();
  });

  it('reports a move with the new times, read in the zone the calendar app wrote', () => {
    // A calendar app rewrote the event in local time: 15:00 in Berlin is 13:00 UTC.
    const moved = event([
      'DTSTART;TZID=Europe/Berlin:20260910T150000',
      'DTEND;TZID=Europe/Berlin:20260910T160000',
    ]);
    expect(outsideChangeOf({ etag: '"a"' }, { etag: '"b"', ics: moved }, booking, 'UTC')).toEqual({
      kind: 'moved',
      start: Date.parse('2026-09-10T13:00:00Z'),
      end: Date.parse('2026-09-10T14:00:00Z'),
    });
  });

  it('does not report an edit that keeps the times, even in another zone', () => {
    const same = event([
      'DTSTART;TZID=Europe/Berlin:20260910T100000',
      'DTEND;TZID=Europe/Berlin:20260910T110000',
      'SUMMARY:Renamed',
    ]);
    expect(outsideChangeOf({ etag: '"a"' }, { etag: '"b"', ics: same }, booking, 'UTC')).toBeNull();
    expect(outsideChangeOf({ etag: null }, { etag: null, ics: utc }, booking, 'UTC')).toBeNull();
  });

  it('reports a delete, and a cancelled event as one', () => {
    expect(outsideChangeOf({ etag: '"a"' }, 'gone', booking, 'UTC')).toEqual({ kind: 'deleted' });
    const cancelled = event(['DTSTART:20260910T080000Z', 'DTEND:20260910T090000Z', 'STATUS:CANCELLED']);
    expect(outsideChangeOf({ etag: '"a"' }, { etag: '"b"', ics: cancelled }, booking, 'UTC')).toEqual({
      kind: 'deleted',
    });
  });

  it('never reports the event of a canceled booking (Kairos removes it), nor an unreadable object', () => {
    expect(outsideChangeOf({ etag: '"a"' }, 'gone', { ...booking, canceled: true }, 'UTC')).toBeNull();
    expect(
      outsideChangeOf({ etag: '"a"' }, { etag: '"b"', ics: 'not a calendar' }, booking, 'UTC'),
    ).toBeNull();
  });
});
