import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport } from '../../src/reports/reports.service.js';
import { formFields, linkTo, location, openPageStudio, type PageStudio } from './booking-page-kit.js';

/**
 * A link to the booking page with `?ref=` (a flyer, a partner's site): the ref rides along every
 * step, lands on the booking, and the sources report counts the booking under it. The API's
 * `source` of such a booking stays 'online-booking'.
 */
let s: PageStudio;
beforeAll(async () => {
  s = await openPageStudio();
});
afterAll(async () => {
  await s?.t.close();
});

describe('?ref= on the booking page', () => {
  it('is kept through the steps, stored with the booking and counted as its source', async () => {
    const service = await s.get(`/book/${s.slug}?service=${s.f.haircut.id}&lang=en&ref=spring-flyer`);
    const staffer = linkTo(service.body, 'Anna');
    expect(staffer).toContain('ref=spring-flyer');
    const slots = await s.get(staffer);
    const day = await s.get(linkTo(slots.body, 'Wednesday, September 2, 2026'));
    const details = await s.get(linkTo(day.body, '9:00 AM, Wednesday, September 2, 2026'));
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...formFields(details.body, '/confirm'),
      customer_phone: '+4915123450077',
    });
    expect(formFields(confirm.body, '/book').ref).toBe('spring-flyer');
    const booked = await s.post(`/book/${s.slug}/book`, formFields(confirm.body, '/book'));
    expect(booked.statusCode, booked.body).toBe(303);
    expect(location(booked)).not.toContain('ref=');

    const row = await s.t.db
      .selectFrom('bookings')
      .select(['id', 'ref', 'source'])
      .where('workspace_id', '=', s.t.workspace.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ ref: 'spring-flyer', source: 'online-booking' });
    const api = await s.t.call('GET', `/bookings/${row.id}`);
    expect(api.json().data.source).toBe('online-booking');

    // Made today by the store's clock: the report of the days around it counts it under its ref.
    const today = new Date().toISOString().slice(0, 10);
    const day0 = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const day2 = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const report = await buildReport(s.t.db, s.t.workspace.id, 'sources', {
      from: day0 < today ? day0 : today,
      to: day2,
      grouping: 'day',
      locationId: undefined,
    });
    expect(report.tables[0]!.rows.map((r) => [r.label, r.values[0]])).toEqual([
      [{ name: 'ref=spring-flyer' }, 1],
    ]);
  });

  it('drops a ref that is no short plain word', async () => {
    const page = await s.get(`/book/${s.slug}?service=${s.f.haircut.id}&lang=en&ref=%3Cscript%3E`);
    expect(page.statusCode).toBe(200);
    expect(linkTo(page.body, 'Anna')).not.toContain('ref=');
  });
});
