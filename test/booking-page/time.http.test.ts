import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffer } from '../helpers/factories.js';
import { decode, openPageStudio, type PageStudio } from './booking-page-kit.js';

/**
 * Time on the booking page: DST days list no time that does not exist and tell
 * the two 02:30s of an autumn night apart by their offsets; the clock follows the language.
 * Expected instants are worked out by hand: Berlin is UTC+2 (CEST) until 2026-10-25 03:00 local,
 * then UTC+1; it springs forward on 2027-03-28 at 02:00 local (01:00Z).
 */
let s: PageStudio;
let night: string;
beforeAll(async () => {
  s = await openPageStudio('2026-10-20T08:00:00Z');
  await s.t.call('PATCH', '/workspace', { horizon_days: 400 });
  const all = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
  night = (
    await createStaffer(s.t.db, s.t.workspace.id, s.f.location.id, [s.f.haircut.id], {
      firstName: 'Nora',
      weekly: Object.fromEntries(all.map((d) => [d, [{ from: '00:00', to: '06:00' }]])),
    })
  ).id;
});
afterAll(async () => {
  await s?.t.close();
});

/** The slot links of one day: their accessible names and chosen instants. */
async function slotsOf(date: string, tz: string, lang = 'en', staffer = night) {
  const page = await s.get(
    `/book/${s.slug}?service=${s.f.haircut.id}&staffer=${staffer}&from=${date}&date=${date}&tz=${encodeURIComponent(tz)}&lang=${lang}`,
  );
  expect(page.statusCode).toBe(200);
  const list = page.body.split('<ul class="slots">')[1]?.split('</ul>')[0] ?? '';
  return [...list.matchAll(/<a href="([^"]*)" aria-label="([^"]*)"/g)].map((m) => ({
    at: new URL(decode(m[1]!), 'http://x').searchParams.get('at'),
    label: decode(m[2]!),
  }));
}

describe('DST days', () => {
  it('tells the two 2:30 AMs of the autumn night apart by their offsets', async () => {
    const slots = await slotsOf('2026-10-25', 'Europe/Berlin');
    const twins = slots.filter((slot) => slot.label.startsWith('2:30 AM'));
    expect(twins).toEqual([
      { at: '2026-10-25T00:30:00Z', label: '2:30 AM GMT+2, Sunday, October 25, 2026' },
      { at: '2026-10-25T01:30:00Z', label: '2:30 AM GMT+1, Sunday, October 25, 2026' },
    ]);
  });

  it('lists no time of the hour that does not exist in spring', async () => {
    const slots = await slotsOf('2027-03-28', 'Europe/Berlin');
    const times = slots.map((slot) => slot.label.split(' GMT')[0]);
    expect(times).toContain('1:45 AM');
    expect(times).toContain('3:00 AM');
    expect(times.filter((time) => time!.startsWith('2:'))).toEqual([]);
    expect(slots.find((slot) => slot.label.startsWith('3:00 AM'))?.at).toBe('2027-03-28T01:00:00Z');
  });

  it("shows the same instants in the customer's zone, on the customer's dates", async () => {
    // 00:30Z on 25 October is 8:30 PM on the 24th in New York (EDT, UTC-4).
    const slots = await slotsOf('2026-10-24', 'America/New_York');
    expect(slots.find((slot) => slot.at === '2026-10-25T00:30:00Z')?.label).toBe(
      '8:30 PM, Saturday, October 24, 2026',
    );
  });
});

describe('the clock follows the language', () => {
  it('is 12-hour in English and 24-hour in German', async () => {
    const en = await slotsOf('2026-10-22', 'Europe/Berlin', 'en', s.f.anna.id);
    const de = await slotsOf('2026-10-22', 'Europe/Berlin', 'de', s.f.anna.id);
    // 14:00 Berlin (CEST) is 12:00Z.
    expect(en.find((slot) => slot.at === '2026-10-22T12:00:00Z')?.label).toBe(
      '2:00 PM, Thursday, October 22, 2026',
    );
    expect(de.find((slot) => slot.at === '2026-10-22T12:00:00Z')?.label).toBe(
      '14:00, Donnerstag, 22. Oktober 2026',
    );
  });
});

describe('the time-zone picker without JavaScript', () => {
  it('is a select of zones named by city and country, the shown and common ones first', async () => {
    const page = (
      await s.get(`/book/${s.slug}?service=${s.f.haircut.id}&staffer=${s.f.anna.id}&lang=en&tz=Asia%2FTokyo`)
    ).body;
    const select = /<select id="tz" name="tz"[^>]*>([\s\S]*?)<\/select>/.exec(page)![1]!;
    const groups = [...select.matchAll(/<optgroup label="([^"]*)">([\s\S]*?)<\/optgroup>/g)];
    expect(groups.map((g) => g[1])).toEqual(['Common time zones', 'All time zones, by city']);
    const common = [...groups[0]![2]!.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
    // The zone shown, then the location's, then the common ones.
    expect(common.slice(0, 3)).toEqual(['Asia/Tokyo', 'Europe/Berlin', 'Europe/London']);
    expect(groups[0]![2]).toContain('<option value="Asia/Tokyo" selected>Tokyo, Japan</option>');
    expect(groups[1]![2]).toContain('<option value="America/Sao_Paulo">Sao Paulo, Brazil</option>');
    expect(groups[1]![2]!.match(/<option /g)!.length).toBeGreaterThan(400);
  });
});
