import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formFields, location, openPageStudio, type PageStudio } from './booking-page-kit.js';

/**
 * Every booking-page form that creates or changes something, submitted several times at once
 * (a double click, an impatient reload): one change, and every answer leads where the first did.
 * Where seats or staffers are free, a repeat without its key would book again.
 */
let s: PageStudio;
beforeAll(async () => {
  s = await openPageStudio();
  // "Any staffer" is offered on the page only with automatic assignment.
  const settings = await s.t.call('PATCH', '/workspace', { staffer_selection: 'automatic' });
  expect(settings.statusCode, settings.body).toBe(200);
});
afterAll(async () => {
  await s?.t.close();
});

/** The booking form of `state` filled in and confirmed, as the browser posts it to /book. */
async function confirmedForm(state: Record<string, string>, phone: string): Promise<Record<string, string>> {
  const details = await s.get(`/book/${s.slug}?${new URLSearchParams({ lang: 'en', ...state })}`);
  expect(details.statusCode).toBe(200);
  const confirm = await s.post(`/book/${s.slug}/confirm`, {
    ...formFields(details.body, '/confirm'),
    customer_phone: phone,
  });
  expect(confirm.statusCode, confirm.body).toBe(200);
  return formFields(confirm.body, '/book');
}

async function bookingsAt(start: string) {
  const { data } = await (
    await s.t.call('GET', `/bookings?reserved_on_from=${start}&reserved_on_to=${start}&per_page=100`)
  ).json();
  return data as { uuid: string; customer: { phone: string }; status: { type: string } }[];
}

async function eventsOf(uuid: string): Promise<string[]> {
  const rows = await s.t.db
    .selectFrom('outbox_events')
    .select('type')
    .where('workspace_id', '=', s.t.workspace.id)
    .where('booking_id', '=', uuid)
    .orderBy('sequence')
    .execute();
  return rows.map((row) => row.type);
}

/** `times` copies of one form post at once, each from its own address. */
function submitAtOnce(path: string, form: Record<string, string>, times = 3) {
  return Promise.all(Array.from({ length: times }, () => s.post(path, form)));
}

function expectOneRedirect(answers: { statusCode: number; headers: Record<string, unknown> }[]) {
  expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 303));
  expect(new Set(answers.map((answer) => answer.headers.location)).size).toBe(1);
}

describe('a booking form submitted several times at once', () => {
  it('books one seat of a group class that has seats left', async () => {
    const start = '2026-09-08T07:00:00Z';
    // One of the class's 3 seats is taken already: two are free, so each repeat could take one.
    const other = await s.t.call('POST', '/bookings', {
      reserved_on: start,
      location_uuid: s.f.location.id,
      service_uuid: s.f.yoga.id,
      staffer_uuid: s.f.anna.id,
      customer_phone: '+4915100000201',
    });
    expect(other.statusCode, other.body).toBe(201);
    const form = await confirmedForm(
      { service: s.f.yoga.id, staffer: s.f.anna.id, at: start },
      '+4915100000202',
    );
    const answers = await submitAtOnce(`/book/${s.slug}/book`, form);
    expectOneRedirect(answers);
    expect(location(answers[0]!)).toMatch(/\/manage\/[A-Za-z0-9_-]{44}\?.*booked=1$/);
    const mine = (await bookingsAt(start)).filter((b) => b.customer.phone === '+4915100000202');
    expect(mine).toHaveLength(1);
    expect(await eventsOf(mine[0]!.uuid)).toEqual(['booking-created']);
    // Later, the same form once more: still the first answer, still one booking.
    const again = await s.post(`/book/${s.slug}/book`, form);
    expect(location(again)).toBe(location(answers[0]!));
    expect(await bookingsAt(start)).toHaveLength(2);
  });

  it('books one staffer of "any staffer" where two are free', async () => {
    const start = '2026-09-09T07:00:00Z';
    const form = await confirmedForm(
      { service: s.f.haircut.id, staffer: 'any', at: start },
      '+4915100000203',
    );
    const answers = await submitAtOnce(`/book/${s.slug}/book`, form);
    expectOneRedirect(answers);
    const made = await bookingsAt(start);
    expect(made.map((b) => b.customer.phone)).toEqual(['+4915100000203']);
  });
});

describe('a manage-link form submitted several times at once', () => {
  async function bookedManagePath(start: string, phone: string): Promise<{ manage: string; uuid: string }> {
    const form = await confirmedForm({ service: s.f.haircut.id, staffer: s.f.anna.id, at: start }, phone);
    const booked = await s.post(`/book/${s.slug}/book`, form);
    expect(booked.statusCode).toBe(303);
    const [made] = await bookingsAt(start);
    return { manage: location(booked).split('?')[0]!, uuid: made!.uuid };
  }

  it('cancels once, and every answer shows the canceled booking', async () => {
    const { manage, uuid } = await bookedManagePath('2026-09-10T07:00:00Z', '+4915100000204');
    const page = await s.get(`${manage}/cancel?lang=en`);
    const answers = await submitAtOnce(`${manage}/cancel?lang=en`, formFields(page.body, '/cancel'));
    expectOneRedirect(answers);
    expect(location(answers[0]!)).toBe(`${manage}?lang=en&done=canceled`);
    expect(await eventsOf(uuid)).toEqual(['booking-created', 'booking-canceled']);
  });

  it('reschedules once, to a time where both staffers are free', async () => {
    const { manage, uuid } = await bookedManagePath('2026-09-11T07:00:00Z', '+4915100000205');
    const to = '2026-09-11T09:00:00Z';
    const page = await s.get(`${manage}/reschedule?lang=en&at=${to}`);
    expect(page.statusCode).toBe(200);
    const answers = await submitAtOnce(`${manage}/reschedule?lang=en`, formFields(page.body, '/reschedule'));
    expectOneRedirect(answers);
    expect(location(answers[0]!)).toBe(`${manage}?lang=en&done=rescheduled`);
    expect(await eventsOf(uuid)).toEqual(['booking-created', 'booking-updated', 'booking-rescheduled']);
  });
});
