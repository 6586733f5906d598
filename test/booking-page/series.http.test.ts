import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, formFields, location, openPageStudio, type PageStudio } from './booking-page-kit.js';

/**
 * A series from the booking page (docs/series.md): offered on the confirm step only for a service
 * the business marked bookable in series; every date booked or none, each date's verdict shown.
 */
let s: PageStudio;
beforeAll(async () => {
  s = await openPageStudio();
});
afterAll(async () => {
  await s?.t.close();
});

async function confirmStep(at: string, phone: string, lang = 'en') {
  const state = { lang, service: s.f.haircut.id, staffer: s.f.anna.id, at };
  const details = await s.get(`/book/${s.slug}?${new URLSearchParams(state)}`);
  expect(details.statusCode).toBe(200);
  const confirm = await s.post(`/book/${s.slug}/confirm`, {
    ...formFields(details.body, '/confirm'),
    customer_phone: phone,
  });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return confirm;
}

async function seriesRows() {
  return s.t.db
    .selectFrom('booking_series')
    .select(['id', 'first_date', 'interval_count', 'occurrence_count', 'mode'])
    .where('workspace_id', '=', s.t.workspace.id)
    .orderBy('first_date')
    .execute();
}

describe('the booking page and series', () => {
  it('offers no repeat for a service not marked bookable in series (the default)', async () => {
    const confirm = await confirmStep('2026-09-07T08:00:00Z', '+4915100000301');
    expect(confirm.body).not.toContain('name="repeat_times"');
    const service = (await s.t.call('GET', `/services/${s.f.haircut.id}`)).json().data;
    expect('series_bookable' in service).toBe(false);
  });

  it('books every second Tuesday three times, once however often the form is sent', async () => {
    const marked = await s.t.call('PATCH', `/services/${s.f.haircut.id}`, { series_bookable: true });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json().data.series_bookable).toBe(true);
    // Tuesday 8 September 2026, 10:00 Berlin (UTC+2).
    const confirm = await confirmStep('2026-09-08T08:00:00Z', '+4915100000302');
    expect(confirm.body).toContain('<legend>Repeat this booking</legend>');
    expect(confirm.body).toContain('<option value="2">Every 2 weeks</option>');
    expect(confirm.body).toContain('<option value="1" selected>Only this once</option>');
    const form = { ...formFields(confirm.body, '/book'), repeat_weeks: '2', repeat_times: '3' };
    const answers = await Promise.all([
      s.post(`/book/${s.slug}/book`, form),
      s.post(`/book/${s.slug}/book`, form),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([303, 303]);
    expect(location(answers[0]!)).toBe(location(answers[1]!));
    expect(location(answers[0]!)).toMatch(/\/manage\/[^?]+\?.*booked=1$/);
    const rows = await seriesRows();
    expect(rows.map((r) => [r.first_date, r.interval_count, r.occurrence_count, r.mode])).toEqual([
      ['2026-09-08', 2, 3, 'all_or_nothing'],
    ]);
    const series = (await s.t.call('GET', `/series/${rows[0]!.id}`)).json().data;
    expect(series.occurrences.map((o: { start_time: string }) => o.start_time)).toEqual([
      '2026-09-08T08:00:00Z',
      '2026-09-22T08:00:00Z',
      '2026-10-06T08:00:00Z',
    ]);
    const manage = await s.get(decode(location(answers[0]!)));
    expect(manage.statusCode).toBe(200);
    expect(manage.body).toContain('Also booked, 2 more dates on the same terms:');
  });

  it('books nothing when one date is taken, and says which', async () => {
    const taken = await s.t.call('POST', '/bookings', {
      reserved_on: '2026-09-16T09:00:00Z',
      location_uuid: s.f.location.id,
      service_uuid: s.f.haircut.id,
      staffer_uuid: s.f.anna.id,
      customer_phone: '+4915100000303',
    });
    expect(taken.statusCode, taken.body).toBe(201);
    const before = (await seriesRows()).length;
    // Wednesdays 9 and 16 September at 11:00: the 16th is taken.
    const confirm = await confirmStep('2026-09-09T09:00:00Z', '+4915100000304');
    const answer = await s.post(`/book/${s.slug}/book`, {
      ...formFields(confirm.body, '/book'),
      repeat_weeks: '1',
      repeat_times: '2',
    });
    expect(answer.statusCode).toBe(409);
    expect(answer.body).toContain('Not every date is free, so nothing was booked:');
    expect(answer.body).toMatch(/<li>[^<]*16[^<]*: not free<\/li>/);
    expect(answer.body).toMatch(/<li>[^<]*9[^<]*: free<\/li>/);
    expect(await seriesRows()).toHaveLength(before);
  });

  it('speaks the page’s language', async () => {
    const confirm = await confirmStep('2026-09-10T08:00:00Z', '+4915100000305', 'de');
    expect(confirm.body).toContain('<legend>Diese Buchung wiederholen</legend>');
    expect(confirm.body).toContain('Alle 3 Wochen');
  });
});
