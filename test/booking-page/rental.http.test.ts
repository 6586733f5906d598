import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formFields, linkTo, location, openPageStudio, type PageStudio } from './booking-page-kit.js';

/**
 * A rental on the booking page (docs/resources.md "Rentals"): a court booked with no staffer
 * step and no staffer named, through the page's own flow, whatever the staffer setting.
 */
let s: PageStudio;
let court: string;
beforeAll(async () => {
  s = await openPageStudio();
  // The strictest staffer setting: a rental is still booked without one.
  await s.t.db
    .updateTable('workspaces')
    .set({ staffer_selection: 'required' })
    .where('id', '=', s.t.workspace.id)
    .execute();
  const weekly = Object.fromEntries(
    ['mon', 'tue', 'wed', 'thu', 'fri'].map((d) => [d, [{ from: '09:00', to: '17:00' }]]),
  );
  await s.t.db
    .updateTable('locations')
    .set({ opening_hours: JSON.stringify(weekly) })
    .where('id', '=', s.f.location.id)
    .execute();
  const unit = await s.t.call('POST', '/resources', {
    location_uuid: s.f.location.id,
    type: 'court',
    name: 'Court 1',
  });
  expect(unit.statusCode, unit.body).toBe(201);
  const created = await s.t.call('POST', '/services', {
    name: 'Court hour',
    duration_minutes: 60,
    location_uuids: [s.f.location.id],
    staffer_needed: false,
    resources: [{ type: 'court' }],
  });
  expect(created.statusCode, created.body).toBe(201);
  court = created.json().data.uuid;
});
afterAll(async () => {
  await s?.t.close();
});

describe('a rental on the booking page', () => {
  it('goes from the service straight to its days, and books with no staffer', async () => {
    const service = await s.get(`/book/${s.slug}?service=${court}&lang=en`);
    expect(service.statusCode).toBe(200);
    // No staffer step: the days are offered at once.
    expect(service.body).not.toContain('Anna');
    const dayPage = await s.get(linkTo(service.body, 'Wednesday, September 2, 2026'));
    expect(dayPage.statusCode).toBe(200);
    const details = await s.get(linkTo(dayPage.body, '10:00 AM, Wednesday, September 2, 2026'));
    expect(details.statusCode).toBe(200);
    expect(details.body).toContain('Your details');
    const confirm = await s.post(`/book/${s.slug}/confirm`, {
      ...formFields(details.body, '/confirm'),
      customer_phone: '+4915123456700',
      customer_first_name: 'Ada',
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const booked = await s.post(`/book/${s.slug}/book`, formFields(confirm.body, '/book'));
    expect(booked.statusCode, booked.body).toBe(303);
    expect(location(booked)).toMatch(new RegExp(`^/book/${s.slug}/manage/`));

    const { data } = await (await s.t.call('GET', '/bookings?per_page=100')).json();
    const made = data.filter(
      (b: { services?: unknown; customer: { phone: string } }) => b.customer.phone === '+4915123456700',
    );
    expect(made).toHaveLength(1);
    expect(made[0].start_time).toBe('2026-09-02T08:00:00Z');
    expect(made[0].staffer).toBeNull();
    expect(made[0].resources.map((r: { name: string }) => r.name)).toEqual(['Court 1']);
  });
});
