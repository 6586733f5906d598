import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  type Json,
  openStudio,
  type Studio,
  setWorkspace,
  statusOfType,
} from '../../../test/bookings/bookings-kit.js';
import { makeUser, PanelClient } from '../../../test/helpers/panel-client.js';

/**
 * Every panel form that makes or changes a booking, submitted several times at once (a double
 * click): one change, and every answer is the first one's redirect. Where seats or staffers are
 * free, a repeat without its key would book again.
 */
let s: Studio;
let staff: PanelClient;
beforeAll(async () => {
  s = await openStudio();
  staff = await PanelClient.signedIn(
    s.t.app,
    s.t.db,
    await makeUser(s.t.db, [{ workspaceId: s.t.workspace.id, role: 'staff' }]),
  );
});
afterAll(() => s.t.close());

const page = (id: string) => `/panel/bookings/${id}`;

/** The hidden idempotency key of the form posting to `action` on the page. */
function keyOf(html: string, action: string): string {
  for (const form of html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)) {
    if (form[1] !== action) continue;
    const key = /name="idempotency_key" value="([^"]+)"/.exec(form[2]!)?.[1];
    if (key) return key;
  }
  throw new Error(`no form posting to ${action} with a key`);
}

/** The form of `action` on `pageUrl`, filled with `fields`, posted `times` times at once. */
async function submitAtOnce(
  pageUrl: string,
  action: string,
  fields: Record<string, string | string[]>,
  times = 3,
): Promise<LightMyRequestResponse[]> {
  const shown = await staff.get(pageUrl);
  expect(shown.statusCode).toBe(200);
  const form = { ...fields, idempotency_key: keyOf(shown.body, action) };
  return Promise.all(Array.from({ length: times }, () => staff.post(action, form)));
}

function expectOneRedirect(answers: LightMyRequestResponse[]): string {
  expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 303));
  const locations = new Set(answers.map((answer) => answer.headers.location));
  expect(locations.size).toBe(1);
  return String(answers[0]!.headers.location);
}

async function bookingsAt(start: string): Promise<Json[]> {
  const { data } = (
    await s.t.call('GET', `/bookings?reserved_on_from=${start}&reserved_on_to=${start}&per_page=100`)
  ).json();
  return data;
}

async function historyActions(id: string): Promise<string[]> {
  const { data } = (await s.t.call('GET', `/bookings/${id}/history`)).json();
  return data.map((entry: Json) => entry.action);
}

const newBooking = (day: string, overrides: Record<string, string | string[]>) => ({
  location_uuid: s.f.location.id,
  service_uuid: [s.f.haircut.id],
  staffer_uuid: s.f.anna.id,
  date: day,
  reserved_on: '10:00',
  customer_phone: '+49 151 2000 0101',
  customer_first_name: 'Grace',
  customer_last_name: 'Hopper',
  customer_email: '',
  booking_comment: '',
  ...overrides,
});

describe('New booking submitted several times at once', () => {
  it('books one seat of a group class that has seats left', async () => {
    const day = s.nextDay();
    // One of the class's 3 seats is taken: two are free, so each repeat could take one.
    await book(
      s.t,
      bookingBody(s.f, at(day, '10:00'), { service_uuid: s.f.yoga.id, customer_phone: '+4915100000111' }),
    );
    const answers = await submitAtOnce(
      '/panel/bookings/new',
      '/panel/bookings',
      newBooking(day, { service_uuid: [s.f.yoga.id], customer_phone: '+49 151 2000 0102' }),
    );
    expect(expectOneRedirect(answers)).toMatch(/^\/panel\/bookings\/[0-9a-f-]{36}\?notice=created$/);
    const seats = await bookingsAt(at(day, '10:00'));
    expect(seats.map((b) => b.customer.phone).sort()).toEqual(['+4915100000111', '+4915120000102']);
  });

  it('books one staffer of "any free staffer" where two are free', async () => {
    await setWorkspace(s.t, { staffer_selection: 'automatic' });
    try {
      const day = s.nextDay();
      const answers = await submitAtOnce(
        '/panel/bookings/new',
        '/panel/bookings',
        newBooking(day, { staffer_uuid: '', customer_phone: '+49 151 2000 0103' }),
      );
      expectOneRedirect(answers);
      const made = await bookingsAt(at(day, '10:00'));
      expect(made.map((b) => b.customer.phone)).toEqual(['+4915120000103']);
    } finally {
      await setWorkspace(s.t, { staffer_selection: 'required' });
    }
  });
});

describe('a booking’s forms submitted several times at once', () => {
  const cases: [string, () => Promise<Record<string, string | string[]>>, string[], string][] = [
    [
      'move',
      async () => ({ date: '', reserved_on: '12:00', staffer_uuid: '' }),
      ['created', 'rescheduled'],
      'moved',
    ],
    ['staffer', async () => ({ staffer_uuid: s.f.ben.id }), ['created', 'staffer_changed'], 'staffer'],
    [
      'services',
      async () => ({ service_uuids: [s.f.haircut.id, s.f.color.id] }),
      ['created', 'services_changed'],
      'services',
    ],
    [
      'status',
      async () => ({ status_uuid: (await statusOfType(s.t, 'confirmed')).uuid }),
      ['created', 'status_changed'],
      'status',
    ],
    ['notes', async () => ({ value: 'Bring the voucher' }), ['created', 'note_added'], 'note'],
    [
      'complete',
      async () => ({ account_uuid: s.f.cash.id, paid_amount: '90.00' }),
      ['created', 'completed'],
      'completed',
    ],
    ['cancel', async () => ({ cancel_reason: 'canceled' }), ['created', 'canceled'], 'canceled'],
  ];

  for (const [action, fields, history, notice] of cases) {
    it(`${action}: changes the booking once`, async () => {
      const day = s.nextDay();
      const booking = await book(s.t, bookingBody(s.f, at(day, '10:00')));
      const filled = await fields();
      if (action === 'move') filled.date = day;
      const answers = await submitAtOnce(page(booking.uuid), `${page(booking.uuid)}/${action}`, filled);
      expect(expectOneRedirect(answers)).toBe(`${page(booking.uuid)}?notice=${notice}`);
      expect(await historyActions(booking.uuid)).toEqual(history);
    });
  }
});
