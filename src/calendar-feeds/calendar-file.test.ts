import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { calendarFeedFile, type FeedBooking } from './calendar-file.js';

/** A booking as the feed query reads it; each test changes what it looks at. */
function booking(overrides: Partial<FeedBooking> = {}): FeedBooking {
  return {
    id: '3b0c3f0e-6a52-4f0e-9a57-2f3a9c1d0e11',
    start_time: new Date('2026-10-25T00:30:00Z'),
    end_time: new Date('2026-10-25T01:30:00Z'),
    created_at: new Date('2026-10-01T08:00:00Z'),
    updated_at: new Date('2026-10-01T08:00:00Z'),
    status_type: 'confirmed',
    status_name: 'Confirmed',
    customer_first_name: 'Erika',
    customer_last_name: 'Muster',
    customer_phone: '+4915170000031',
    customer_email: '',
    booking_comment: '',
    lines: [{ name: 'Haircut' }],
    location_name: 'Mitte',
    location_address: 'Torstr. 1',
    location_city: 'Berlin',
    ...overrides,
  } as FeedBooking;
}

const summaries = (file: string) =>
  new ICAL.Component(ICAL.parse(file))
    .getAllSubcomponents('vevent')
    .map((event) => String(event.getFirstPropertyValue('summary')));

describe('calendarFeedFile', () => {
  it('formats an event again when anything it shows changed, though its booking kept its updated_at', async () => {
    const args = { name: 'Studio · Anna', host: 'book.example' };
    expect(summaries(await calendarFeedFile([booking()], args))).toEqual(['Haircut · Erika Muster']);
    // A customer renamed, a location moved: the booking row itself did not change.
    const renamed = await calendarFeedFile([booking({ customer_first_name: 'Erik' })], args);
    expect(summaries(renamed)).toEqual(['Haircut · Erik Muster']);
    const moved = new ICAL.Component(
      ICAL.parse(await calendarFeedFile([booking({ location_city: 'Potsdam' })], args)),
    );
    expect(moved.getFirstSubcomponent('vevent')!.getFirstPropertyValue('location')).toBe(
      'Mitte, Torstr. 1, Potsdam',
    );
    // The same booking under another host is another UID.
    const other = new ICAL.Component(
      ICAL.parse(await calendarFeedFile([booking()], { ...args, host: 'other.example' })),
    );
    expect(other.getFirstSubcomponent('vevent')!.getFirstPropertyValue('uid')).toBe(
      '3b0c3f0e-6a52-4f0e-9a57-2f3a9c1d0e11@other.example',
    );
  });

  it('writes one calendar around every event, named, and an empty one without events', async () => {
    const two = await calendarFeedFile(
      [booking(), booking({ id: 'c9b1d7a2-1e9f-4c55-8d40-5b7f0d6a2b33', customer_last_name: '' })],
      { name: 'Studio · Anna', host: 'book.example' },
    );
    const calendar = new ICAL.Component(ICAL.parse(two));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Studio · Anna');
    expect(summaries(two)).toEqual(['Haircut · Erika Muster', 'Haircut · Erika']);
    expect(two.match(/BEGIN:VCALENDAR/g)).toHaveLength(1);
    const empty = new ICAL.Component(ICAL.parse(await calendarFeedFile([], { name: 'Nobody', host: 'h' })));
    expect(empty.getAllSubcomponents('vevent')).toEqual([]);
    expect(empty.getFirstPropertyValue('version')).toBe('2.0');
  });

  it('gives the event loop turns while it formats a feed no poll has seen, none when every event is known', async () => {
    const args = { name: 'Studio · Ben', host: 'turns.example' };
    const many = Array.from({ length: 100 }, (_, index) =>
      booking({ id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}` }),
    );
    // Counts the turns other work gets while the feed is written.
    const turnsDuring = async (write: () => Promise<string>) => {
      let turns = 0;
      let writing = true;
      const tick = () => {
        if (!writing) return;
        turns += 1;
        setImmediate(tick);
      };
      setImmediate(tick);
      const file = await write();
      writing = false;
      expect(summaries(file)).toHaveLength(100);
      return turns;
    };
    expect(await turnsDuring(() => calendarFeedFile(many, args))).toBeGreaterThanOrEqual(3);
    expect(await turnsDuring(() => calendarFeedFile(many, args))).toBe(0);
  });
});
