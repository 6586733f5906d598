import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  book,
  bookingBody,
  callAs,
  expectError,
  type Json,
  openStudio,
  PHONE,
  type Studio,
  UTC_ISO,
} from '../../test/bookings/bookings-kit.js';
import { createOtherWorkspace } from '../../test/helpers/build-test-app.js';

let s: Studio;
let mia: Json;
let other: Awaited<ReturnType<typeof createOtherWorkspace>>;
let theirCustomer: string;

beforeAll(async () => {
  s = await openStudio();
  const booking = await book(
    s.t,
    bookingBody(s.f, at(s.nextDay(), '10:00'), {
      customer_phone: '+49 151 1234 5678',
      customer_first_name: 'Mia',
      customer_email: 'mia@example.com',
    }),
  );
  mia = booking.customer;
  other = await createOtherWorkspace(s.t.db);
  // The same number in another workspace is another customer.
  theirCustomer = (
    await s.t.db
      .insertInto('customers')
      .values({ workspace_id: other.workspace.id, phone: PHONE, first_name: 'Theirs' })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
});
afterAll(() => s.t.close());

describe('GET /customers?phone=', () => {
  it.each([
    ['E.164', PHONE],
    ['spaces', '+49 151 12345678'],
    ['dashes and brackets', '+49 (151) 1234-5678'],
    ['no plus', '4915112345678'],
    ['00 prefix', '0049 151 12345678'],
  ])('finds the customer by a phone written with %s', async (_how, phone) => {
    const response = await s.t.call('GET', `/customers?phone=${encodeURIComponent(phone)}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.data).toEqual([
      {
        uuid: mia.uuid,
        phone: PHONE,
        first_name: 'Mia',
        last_name: '',
        email: 'mia@example.com',
        created_at: expect.stringMatching(UTC_ISO),
        updated_at: expect.stringMatching(UTC_ISO),
      },
    ]);
    expect(body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 15, total: 1 });
  });

  it('answers an empty list for an unknown or unparseable phone', async () => {
    for (const phone of ['+4915199999999', 'not a phone', '']) {
      const response = await s.t.call('GET', `/customers?phone=${encodeURIComponent(phone)}`);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toEqual([]);
      expect(response.json().meta.total).toBe(0);
    }
  });

  it("never shows another workspace's customer with the same phone", async () => {
    const ours = (await s.t.call('GET', `/customers?phone=${encodeURIComponent(PHONE)}`)).json().data;
    expect(ours.map((c: Json) => c.uuid)).toEqual([mia.uuid]);
    const theirs = (
      await callAs(s.t, other.headers, 'GET', `/customers?phone=${encodeURIComponent(PHONE)}`)
    ).json();
    expect(theirs.data.map((c: Json) => c.uuid)).toEqual([theirCustomer]);
  });

  it('lists all customers without a phone, paginated', async () => {
    await book(s.t, bookingBody(s.f, at(s.nextDay(), '10:00'), { customer_phone: '+4915133333333' }));
    const response = await s.t.call('GET', '/customers?per_page=1');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.data.map((c: Json) => c.uuid)).toEqual([mia.uuid]);
    expect(body.meta).toEqual({ current_page: 1, last_page: 2, per_page: 1, total: 2 });
  });
});

describe('GET /customers/{uuid}', () => {
  it('answers {data: customer}', async () => {
    const response = await s.t.call('GET', `/customers/${mia.uuid}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ ...mia, created_at: expect.stringMatching(UTC_ISO) });
  });

  it("answers another workspace's customer exactly like an unknown one, and a malformed uuid with 404", async () => {
    const foreign = await s.t.call('GET', `/customers/${theirCustomer}`);
    const unknown = await s.t.call('GET', `/customers/${randomUUID()}`);
    expectError(foreign, 404, 'not_found');
    expect(foreign.json()).toEqual(unknown.json());
    expectError(await s.t.call('GET', '/customers/not-a-uuid'), 404, 'not_found');
  });
});

describe('the customer of a booking', () => {
  it('keeps known names and email, and fills in only what is still empty', async () => {
    const day = s.nextDay();
    const past = new Date('2020-01-01T00:00:00Z');
    await s.t.db.updateTable('customers').set({ updated_at: past }).where('id', '=', mia.uuid).execute();
    // A repeat booking that adds nothing leaves the customer as it was.
    await book(
      s.t,
      bookingBody(s.f, at(day, '09:00'), { customer_phone: PHONE, customer_first_name: 'Maria' }),
    );
    expect((await s.t.call('GET', `/customers/${mia.uuid}`)).json().data.updated_at).toBe(
      '2020-01-01T00:00:00Z',
    );
    const again = await book(
      s.t,
      bookingBody(s.f, at(day, '12:00'), {
        customer_phone: PHONE,
        customer_first_name: 'Maria',
        customer_last_name: 'Muster',
        customer_email: 'other@example.com',
      }),
    );
    expect(again.customer).toEqual({
      uuid: mia.uuid,
      phone: PHONE,
      first_name: 'Mia',
      last_name: 'Muster',
      email: 'mia@example.com',
    });
    const read = (await s.t.call('GET', `/customers/${mia.uuid}`)).json().data;
    expect(read).toMatchObject(again.customer);
    // The last name was filled in: that is a change of the customer.
    expect(Date.parse(read.updated_at)).toBeGreaterThan(past.getTime());
  });
});
