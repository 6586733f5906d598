import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  berlinLocal,
  book,
  bookingBody,
  duration,
  eur,
  expect422,
  expectError,
  openStudio,
  PHONE,
  plusMinutes,
  type Studio,
  statusOfType,
  UTC_ISO,
  UUID,
} from '../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../test/helpers/build-test-app.js';
import { createLocation, createService, createStaffer } from '../../test/helpers/factories.js';

let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

describe('POST /bookings: the created booking', () => {
  it('answers 201 {data: booking} with every DESIGN §3 field derived from the request', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const start = at(day, '14:00');
    const response = await t.call(
      'POST',
      '/bookings',
      bookingBody(f, start, {
        customer_phone: '+49 151 55555501',
        customer_first_name: 'Mia',
        customer_last_name: 'Muster',
        customer_email: 'mia@example.com',
        booking_comment: 'Window seat, please',
        booking_callback: true,
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    // The uuid also beside the envelope, where clients of the real service read it.
    expect(Object.keys(body)).toEqual(['data', 'uuid']);
    expect(body.uuid).toBe(body.data.uuid);
    const fresh = await statusOfType(t, 'new');
    const end = plusMinutes(start, 60);
    expect(body.data).toEqual({
      uuid: expect.stringMatching(UUID),
      location_uuid: f.location.id,
      start_time: start,
      start_time_local: `${day}T14:00:00+02:00`,
      end_time: end,
      end_time_local: `${day}T15:00:00+02:00`,
      timezone: 'Europe/Berlin',
      duration: duration(60),
      quantity: 1,
      status: { uuid: fresh.uuid, name: fresh.name, type: 'new' },
      is_canceled: false,
      is_completed: false,
      cancel_reason: null,
      staffer: { uuid: f.anna.id, first_name: 'Anna', last_name: 'Stylist' },
      customer: {
        uuid: expect.stringMatching(UUID),
        phone: '+4915155555501',
        first_name: 'Mia',
        last_name: 'Muster',
        email: 'mia@example.com',
      },
      // Its services need no rooms or equipment (docs/resources.md).
      resources: [],
      ordered_services: [
        {
          uuid: expect.stringMatching(UUID),
          service_uuid: f.haircut.id,
          name: 'Haircut',
          description: '',
          quantity: 1,
          price: 9000,
          price_formatted: eur(9000),
          original_price: 9000,
          original_price_formatted: eur(9000),
          discount: 0,
          discount_formatted: eur(0),
          currency: 'EUR',
          duration: duration(60),
          original_duration: duration(60),
          reserved_on: start,
          reserved_until: end,
          timezone: 'Europe/Berlin',
        },
      ],
      order: {
        uuid: expect.stringMatching(UUID),
        currency: 'EUR',
        subtotal: 9000,
        subtotal_formatted: eur(9000),
        tax: 0,
        tax_formatted: eur(0),
        total: 9000,
        total_formatted: eur(9000),
        amount_paid: 0,
        amount_paid_formatted: eur(0),
        payments: [],
      },
      booking_comment: 'Window seat, please',
      public_notes: 'Window seat, please',
      booking_callback: true,
      source: 'api',
      // The customer's manage page and its calendar file, under the app's link base (HOST:PORT
      // without PUBLIC_URL), with a signed token (test/compat/booking-links.test.ts opens them).
      links: [
        {
          type: 'manage',
          link: expect.stringMatching(
            new RegExp(`^http://127\\.0\\.0\\.1:3000/book/${s.t.workspace.slug}/manage/[A-Za-z0-9_-]{44}$`),
          ),
        },
        { type: 'ical', link: expect.stringMatching(/\/manage\/[A-Za-z0-9_-]{44}\/calendar\.ics$/) },
      ],
      policy: {
        cancel_cutoff_minutes: 1440,
        cancel_until: plusMinutes(start, -1440),
        reschedule_cutoff_minutes: 1440,
        reschedule_until: plusMinutes(start, -1440),
      },
      created_at: expect.stringMatching(UTC_ISO),
      updated_at: expect.stringMatching(UTC_ISO),
    });
    expect(body.data.order.uuid).not.toBe(body.data.uuid);
    const read = await t.call('GET', `/bookings/${body.data.uuid}`);
    expect(read.statusCode).toBe(200);
    // A read answers the same booking in the plain envelope.
    expect(read.json()).toEqual({ data: body.data });
  });

  it('keeps a given source, and leaves optional fields empty when not sent', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '10:00'), { source: 'widget' }));
    expect(booking.source).toBe('widget');
    expect(booking.booking_comment).toBe('');
    expect(booking.public_notes).toBe('');
    expect(booking.booking_callback).toBeNull();
  });

  it('converts reserved_on with an explicit offset to UTC and reads one without offset as UTC', async () => {
    const day = s.nextDay();
    const withOffset = await book(s.t, bookingBody(s.f, `${day}T11:00:00+02:00`));
    expect(withOffset.start_time).toBe(`${day}T09:00:00Z`);
    expect(withOffset.start_time_local).toBe(`${day}T11:00:00+02:00`);
    const bare = await book(s.t, bookingBody(s.f, `${day}T12:00:00`, { staffer_uuid: s.f.ben.id }));
    expect(bare.start_time).toBe(`${day}T12:00:00Z`);
    expect(bare.start_time_local).toBe(`${day}T14:00:00+02:00`);
  });
});

describe('POST /bookings: the customer', () => {
  it('creates a customer for a new phone and reuses it for the same phone in any notation', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const first = await book(t, bookingBody(f, at(day, '09:00'), { customer_phone: '+49 151 12345678' }));
    expect(first.customer.phone).toBe(PHONE);
    const compact = await book(t, bookingBody(f, at(day, '10:00'), { customer_phone: '+4915112345678' }));
    const noPlus = await book(t, bookingBody(f, at(day, '11:00'), { customer_phone: '4915112345678' }));
    expect(compact.customer.uuid).toBe(first.customer.uuid);
    expect(noPlus.customer.uuid).toBe(first.customer.uuid);
    const rows = await t.db
      .selectFrom('customers')
      .select('id')
      .where('workspace_id', '=', t.workspace.id)
      .where('phone', '=', PHONE)
      .execute();
    expect(rows.map((r) => r.id)).toEqual([first.customer.uuid]);
    const other = await book(t, bookingBody(f, at(day, '12:00'), { customer_phone: '+4915199999999' }));
    expect(other.customer.uuid).not.toBe(first.customer.uuid);
  });

  it.each(['+49 123', 'not a phone', '+1 555'])(
    'refuses the invalid phone %j with 422 customer_phone',
    async (phone) => {
      const response = await s.t.call(
        'POST',
        '/bookings',
        bookingBody(s.f, at(s.nextDay(), '10:00'), { customer_phone: phone }),
      );
      expect422(response, ['customer_phone']);
    },
  );
});

describe('POST /bookings: required fields', () => {
  it('names every missing required field at once', async () => {
    expect422(await s.t.call('POST', '/bookings', {}), [
      'reserved_on',
      'location_uuid',
      'service_uuid',
      'staffer_uuid',
      'customer_phone',
    ]);
  });

  it.each(['reserved_on', 'location_uuid', 'service_uuid', 'staffer_uuid', 'customer_phone'])(
    'a body without %s is 422 naming only it',
    async (field) => {
      const body: Record<string, unknown> = bookingBody(s.f, at(s.nextDay(), '10:00'));
      delete body[field];
      expect422(await s.t.call('POST', '/bookings', body), [field]);
      body[field] = '   ';
      expect422(await s.t.call('POST', '/bookings', body), [field]);
    },
  );

  it('requires booking_callback once the booking form marks it required', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const patch = await t.call('PATCH', '/workspace', { booking_form: { booking_callback: 'required' } });
    expect(patch.statusCode).toBe(200);
    try {
      expect422(await t.call('POST', '/bookings', bookingBody(f, at(day, '10:00'))), ['booking_callback']);
      const nothing = bookingBody(f, at(day, '10:00'), { booking_callback: null });
      expect422(await t.call('POST', '/bookings', nothing), ['booking_callback']);
      const booking = await book(t, bookingBody(f, at(day, '10:00'), { booking_callback: false }));
      expect(booking.booking_callback).toBe(false);
    } finally {
      await t.call('PATCH', '/workspace', { booking_form: { booking_callback: 'optional' } });
    }
    const optional = await book(t, bookingBody(f, at(day, '11:00'), { booking_callback: null }));
    expect(optional.booking_callback).toBeNull();
  });

  it('answers bad types and malformed values with 422 naming each field, never a 5xx', async () => {
    const { t, f } = s;
    const body = bookingBody(f, 'tomorrow at noon', {
      location_uuid: 'not-a-uuid',
      service_uuid: 42,
      staffer_uuid: { id: 1 },
      booking_callback: 'perhaps',
      customer_email: 'no-at-sign',
    });
    const response = await t.call('POST', '/bookings', body);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(
      expect.arrayContaining(['location_uuid', 'service_uuid', 'staffer_uuid', 'booking_callback']),
    );
    const parsed = await t.call('POST', '/bookings', bookingBody(f, '2026-02-30T10:00:00Z'));
    expect422(parsed, ['reserved_on']);
    const email = await t.call(
      'POST',
      '/bookings',
      bookingBody(f, at(s.nextDay(), '10:00'), { customer_email: 'x@' }),
    );
    expect422(email, ['customer_email']);
  });

  it('answers malformed JSON with 400 and an array body with a 4xx', async () => {
    const malformed = await s.t.app.inject({
      method: 'POST',
      url: '/api/public/v2/bookings',
      headers: { ...s.t.headers, 'content-type': 'application/json' },
      payload: '{"reserved_on": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('malformed_body');
    const array = await s.t.call('POST', '/bookings', [1, 2]);
    expect(array.statusCode).toBeGreaterThanOrEqual(400);
    expect(array.statusCode).toBeLessThan(500);
  });
});

describe('POST /bookings: the slot must be bookable', () => {
  it.each([
    ['before working hours', '08:00'],
    ['ending after working hours', '16:30'],
    ['after working hours', '18:00'],
  ])('a start %s is 409 slot_unavailable', async (_what, hhmm) => {
    const response = await s.t.call('POST', '/bookings', bookingBody(s.f, at(s.nextDay(), hhmm)));
    const body = expectError(response, 409, 'slot_unavailable');
    expect(Object.keys(body.errors)).toContain('reserved_on');
  });

  it('books a free whole minute off the 15-minute grid, and refuses a start with seconds', async () => {
    const day = s.nextDay();
    const booking = await book(s.t, bookingBody(s.f, at(day, '14:05')));
    expect(booking.start_time).toBe(at(day, '14:05'));
    const seconds = await s.t.call('POST', '/bookings', {
      ...bookingBody(s.f, at(day, '15:30')),
      reserved_on: `${day}T13:30:30Z`,
    });
    const body = expectError(seconds, 409, 'slot_unavailable');
    expect(body.errors.reserved_on).toEqual([
      'The requested time is not a bookable start: it must fall on a whole minute.',
    ]);
  });

  it('refuses a start within the minimum notice and one beyond the horizon', async () => {
    // now = 2026-09-01T08:00Z = 10:00 Berlin; 60 minutes of notice make 10:30 too soon, 11:00 fine.
    const soon = await s.t.call('POST', '/bookings', bookingBody(s.f, at('2026-09-01', '10:30')));
    expectError(soon, 409, 'slot_unavailable');
    await book(s.t, bookingBody(s.f, at('2026-09-01', '11:00')));
    // 90 days of horizon: 2026-12-15 is beyond (Berlin is UTC+1 then: 10:00Z = 11:00 local).
    const far = await s.t.call('POST', '/bookings', bookingBody(s.f, '2026-12-15T10:00:00Z'));
    expectError(far, 409, 'slot_unavailable');
  });

  it('refuses a taken or overlapping time of the staffer, and leaves the other staffer bookable', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    await book(t, bookingBody(f, at(day, '14:00')));
    expectError(await t.call('POST', '/bookings', bookingBody(f, at(day, '14:00'))), 409, 'slot_unavailable');
    expectError(await t.call('POST', '/bookings', bookingBody(f, at(day, '14:30'))), 409, 'slot_unavailable');
    expectError(await t.call('POST', '/bookings', bookingBody(f, at(day, '13:15'))), 409, 'slot_unavailable');
    await book(t, bookingBody(f, at(day, '15:00')));
    await book(t, bookingBody(f, at(day, '14:00'), { staffer_uuid: f.ben.id }));
  });

  it('fills a group class of capacity 3 with exactly 3 bookings at one start', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const start = at(day, '10:00');
    const bookings = [];
    for (const n of [1, 2, 3]) {
      bookings.push(
        await book(
          t,
          bookingBody(f, start, { service_uuid: f.yoga.id, customer_phone: `+491515000000${n}` }),
        ),
      );
    }
    expect(new Set(bookings.map((b) => b.uuid)).size).toBe(3);
    for (const booking of bookings) expect(booking.staffer.uuid).toBe(f.anna.id);
    const fourth = await t.call(
      'POST',
      '/bookings',
      bookingBody(f, start, { service_uuid: f.yoga.id, customer_phone: '+4915150000004' }),
    );
    expectError(fourth, 409, 'slot_unavailable');
  });
});

describe('POST /bookings: references', () => {
  it('refuses a staffer who does not provide the service, or is unknown, with 422 staffer_uuid', async () => {
    const { t, f } = s;
    const colorist = await createStaffer(t.db, t.workspace.id, f.location.id, [f.color.id], {
      firstName: 'Carl',
    });
    const day = s.nextDay();
    expect422(
      await t.call('POST', '/bookings', bookingBody(f, at(day, '10:00'), { staffer_uuid: colorist.id })),
      ['staffer_uuid'],
    );
    expect422(
      await t.call('POST', '/bookings', bookingBody(f, at(day, '10:00'), { staffer_uuid: randomUUID() })),
      ['staffer_uuid'],
    );
  });

  it("refuses another workspace's location, service and staffer with 422 naming the field", async () => {
    const { t, f } = s;
    const other = await createOtherWorkspace(t.db);
    const theirLocation = await createLocation(t.db, other.workspace.id);
    const theirService = await createService(t.db, other.workspace.id, [theirLocation.id]);
    const theirStaffer = await createStaffer(t.db, other.workspace.id, theirLocation.id, [theirService.id]);
    const start = at(s.nextDay(), '10:00');
    const cases: [string, Record<string, unknown>][] = [
      ['location_uuid', { location_uuid: theirLocation.id }],
      ['service_uuid', { service_uuid: theirService.id }],
      ['staffer_uuid', { staffer_uuid: theirStaffer.id }],
      ['location_uuid', { location_uuid: randomUUID() }],
      ['service_uuid', { service_uuid: randomUUID() }],
    ];
    for (const [field, override] of cases) {
      expect422(await t.call('POST', '/bookings', bookingBody(f, start, override)), [field]);
    }
    const count = await t.db
      .selectFrom('bookings')
      .select('id')
      .where('workspace_id', '=', other.workspace.id)
      .execute();
    expect(count).toEqual([]);
  });
});

describe('POST /bookings and GET time-slots agree', () => {
  it('accepts a listed slot, after which its quantity drops by one', async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const url = `/locations/${f.location.id}/time-slots?service_uuid=${f.haircut.id}&range_start=${day}&range_end=${day}`;
    const before = (await t.call('GET', url)).json();
    const slot = before.dates
      .find((d: { date: string }) => d.date === day)
      .slots.find((x: { start: string }) => x.start === '13:00');
    expect(slot.quantity).toBe(2);
    const start = at(day, slot.start);
    const booking = await book(t, bookingBody(f, start));
    expect(booking.start_time_local).toBe(berlinLocal(start));
    const after = (await t.call('GET', url)).json();
    const again = after.dates
      .find((d: { date: string }) => d.date === day)
      .slots.find((x: { start: string }) => x.start === '13:00');
    expect(again.quantity).toBe(slot.quantity - 1);
  });

  it("frees a canceled booking's time at once: listed again and bookable", async () => {
    const { t, f } = s;
    const day = s.nextDay();
    const url = `/locations/${f.location.id}/time-slots?service_uuid=${f.haircut.id}&range_start=${day}&range_end=${day}`;
    const listed = async () =>
      (await t.call('GET', url)).json().dates[0].slots.find((x: { start: string }) => x.start === '15:00');
    const anna = await book(t, bookingBody(f, at(day, '15:00')));
    await book(t, bookingBody(f, at(day, '15:00'), { staffer_uuid: f.ben.id }));
    expect(await listed()).toBeUndefined();
    const cancel = await t.call('PUT', `/bookings/${anna.uuid}/status/cancel`);
    expect(cancel.statusCode).toBe(200);
    expect((await listed()).quantity).toBe(1);
    const again = await book(t, bookingBody(f, at(day, '15:00'), { customer_phone: '+4915177777777' }));
    expect(again.staffer.uuid).toBe(f.anna.id);
  });
});
