import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERY_DAY_9_TO_17 } from '../helpers/factories.js';
import { decode, linkTo, openPageStudio, type PageStudio } from './booking-page-kit.js';

/**
 * Jumping to a date without JavaScript: `?date=` alone, and the month table's plain links.
 * Today is Tuesday 2026-09-01; the booking horizon (90 days) ends on 2026-11-30.
 */
let s: PageStudio;
beforeAll(async () => {
  s = await openPageStudio();
});
afterAll(async () => {
  await s?.t.close();
});

const slotStep = () => `/book/${s.slug}?service=${s.f.haircut.id}&staffer=${s.f.anna.id}&lang=en`;

/** The day strip's dates, as its links and greyed days name them. */
function stripDays(html: string): string[] {
  const strip = /<ul class="days">([\s\S]*?)<\/ul>/.exec(html)![1]!;
  return [...strip.matchAll(/<span class="sr">([^<]*?)(?::[^<]*)?<\/span>/g)].map((m) => decode(m[1]!));
}

describe('jumping to a date', () => {
  it('opens the week of ?date= without from=, on that day', async () => {
    const page = await s.get(`${slotStep()}&date=2026-11-19`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h2>Thursday, November 19, 2026</h2>');
    expect(stripDays(page.body)).toEqual([
      'Tuesday, November 17, 2026',
      'Wednesday, November 18, 2026',
      'Thursday, November 19, 2026',
      'Friday, November 20, 2026',
      'Saturday, November 21, 2026',
      'Sunday, November 22, 2026',
      'Monday, November 23, 2026',
    ]);
    // The pager steps on from there, through the same 7-day ranges as from today.
    expect(linkTo(page.body, 'Earlier days')).toContain('from=2026-11-10');
  });

  it('shows a day asked for by name even when it has no free times, instead of another day', async () => {
    // Anna takes Wednesday 2026-10-14 off.
    const put = await s.t.call('PUT', `/staffers/${s.f.anna.id}/schedules/${s.f.location.id}`, {
      weekly: EVERY_DAY_9_TO_17,
      overrides: [{ date: '2026-10-14', intervals: [] }],
    });
    expect(put.statusCode).toBe(200);
    const page = await s.get(`${slotStep()}&date=2026-10-14`);
    expect(page.body).toContain('<h2>Wednesday, October 14, 2026</h2>');
    expect(page.body).toContain('No free times on this day.');
  });

  it('picks a day in the month table with plain links: months forward and back, then a day', async () => {
    const first = await s.get(slotStep());
    // The table is there, closed, on the month of the day shown; its days are named in full.
    expect(first.body).toContain('<details class="month"><summary>Pick a date</summary>');
    expect(first.body).toContain('<caption>September 2026</caption>');
    expect(first.body).toContain('<th scope="col" abbr="Monday">Mon</th>');
    // No month before this one, nor past the horizon's.
    expect(() => linkTo(first.body, 'August 2026')).toThrow();
    const october = await s.get(linkTo(first.body, 'October 2026'));
    expect(october.body).toContain('<details class="month" open>');
    expect(october.body).toContain('<caption>October 2026</caption>');
    const november = await s.get(linkTo(october.body, 'November 2026'));
    expect(() => linkTo(november.body, 'December 2026')).toThrow();
    // Past the horizon a day is text, not a link.
    expect(() => linkTo(november.body, 'Monday, November 30, 2026')).not.toThrow();
    expect(november.body).not.toContain('December 1, 2026');
    const href = linkTo(november.body, 'Friday, November 27, 2026');
    expect(href).toContain('date=2026-11-27');
    expect(href).not.toContain('from=');
    expect(href).not.toContain('month=');
    const day = await s.get(href);
    expect(day.body).toContain('<h2>Friday, November 27, 2026</h2>');
    expect(decodeURIComponent(linkTo(day.body, '9:00 AM, Friday, November 27, 2026'))).toContain(
      'at=2026-11-27T08:00:00Z',
    );
    // The table opens on the month of the day shown, closed again, with that day current.
    expect(day.body).toContain('<details class="month"><summary>');
    expect(day.body).toMatch(/aria-label="Friday, November 27, 2026" aria-current="date"/);
  });
});
