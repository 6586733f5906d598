import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, book, bookingBody, change, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';
import { dispatchOutbox } from '../outbox/outbox-dispatch.service.js';
import { readAvailabilityVersion } from '../slots/availability-versions.repository.js';
import { receiveInboundText } from '../text-messages/text-inbound.service.js';
import { outboxHandlers } from '../workers.js';
import { findWorkspaceById } from '../workspaces/workspaces.repository.js';
import { openWritePath } from '../write-path.js';
import { retentionCutoff, scrubPersonal, scrubText } from './customer-data.rules.js';
import { sweepRetention } from './customer-data.service.js';

/**
 * Customer data rights (docs/customer-data.md): one customer's data as one JSON document, and
 * erasure that leaves no trace of their personal data in any table while the business's
 * bookings and money still add up.
 */
let s: Studio;
beforeAll(async () => {
  // Webhooks here only need deliveries recorded, never sent: a loopback address keeps DNS out.
  s = await openStudio({ config: { webhooksAllowPrivate: true } });
});
afterAll(() => s.t.close());

const dispatch = () => dispatchOutbox(s.t.db, outboxHandlers(), s.clock.now(), 1_000);

/** Tables that hold anything about a customer, each row as one text. */
const PLACES = [
  'customers',
  'bookings',
  'public_notes',
  'booking_history',
  'outbox_events',
  'webhook_deliveries',
  'mail_messages',
  'idempotency_keys',
  'text_messages',
  'text_inbound',
] as const;

/** Which of the places hold `secret` anywhere in a row of this workspace. */
async function placesHolding(secret: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of PLACES) {
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM ${sql.table(table)} AS t
      WHERE t.workspace_id = ${s.t.workspace.id} AND strpos(t::text, ${secret}) > 0`.execute(s.t.db);
    if (rows[0]!.n > 0) found.push(table);
  }
  return found;
}

describe('export and erasure of one customer', () => {
  it('exports everything kept, then erases it from every place while totals stay', async () => {
    const { t, f } = s;
    await dispatch();
    for (const format of ['standard', 'legacy']) {
      const hook = await t.call('POST', '/webhooks', { url: `http://127.0.0.1:9/${format}`, format });
      expect(hook.statusCode, hook.body).toBe(201);
    }
    // The workspace sends texts (to the log: no provider), and the customer will reply to one.
    await t.db
      .updateTable('workspaces')
      .set({ text_settings: JSON.stringify({ enabled: true }) })
      .where('id', '=', t.workspace.id)
      .execute();
    const workspace = (await findWorkspaceById(t.db, t.workspace.id))!;
    const phone = '+4915199887766';
    const email = 'erika.erase@example.com';
    const created = await t.call(
      'POST',
      '/bookings',
      bookingBody(f, at(s.nextDay(), '10:00'), {
        customer_phone: phone,
        customer_email: email,
        customer_first_name: 'Erikaerase',
        customer_last_name: 'Mustermannerase',
        booking_comment: 'Latexallergy please',
      }),
      { 'idempotency-key': 'erase-me-once' },
    );
    expect(created.statusCode, created.body).toBe(201);
    const booking = created.json().data;
    const customerId = booking.customer.uuid;
    const note = await t.call('POST', `/bookings/${booking.uuid}/public_notes`, {
      value: 'Asked for Erikaerase by name',
    });
    expect(note.statusCode, note.body).toBe(201);
    const done = await change(t, 'PUT', `/bookings/${booking.uuid}/status/complete`, {
      account_uuid: f.cash.id,
      paid_amount: 9000,
    });
    await dispatch();
    await receiveInboundText(
      {
        db: t.db,
        uow: openWritePath(t.db).uow,
        workspace,
        now: s.clock.now(),
        linkBase: 'http://kairos.test',
      },
      { provider: 'twilio', messageId: 'SM-erase-1', from: phone, body: 'Hello, Latexallergy again' },
    );

    // Before: the data is really in those places, so the checks after can fail.
    expect(await placesHolding(phone)).toEqual(
      expect.arrayContaining([
        'customers',
        'outbox_events',
        'webhook_deliveries',
        'idempotency_keys',
        'text_messages',
        'text_inbound',
      ]),
    );
    expect(await placesHolding('Mustermannerase')).toEqual(
      expect.arrayContaining(['customers', 'outbox_events', 'webhook_deliveries', 'mail_messages']),
    );
    expect(await placesHolding('Latexallergy')).toEqual(expect.arrayContaining(['bookings']));

    const versionBefore = await readAvailabilityVersion(t.db, t.workspace.id);
    const exported = await t.call('GET', `/customers/${customerId}/export`);
    expect(exported.statusCode, exported.body).toBe(200);
    // The export is audited, and being a read it leaves the workspace's slot caches alone.
    expect(await readAvailabilityVersion(t.db, t.workspace.id)).toBe(versionBefore);
    const audited = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_entries
      WHERE workspace_id = ${t.workspace.id} AND action = 'customer.exported' AND subject_id = ${customerId}`.execute(
      t.db,
    );
    expect(audited.rows[0]!.n).toBe(1);
    expect(exported.headers['content-disposition']).toContain(`customer-${customerId}.json`);
    const document = exported.json();
    expect(document.customer).toMatchObject({ uuid: customerId, phone, email, erased_at: null });
    expect(document.bookings).toHaveLength(1);
    expect(document.bookings[0]).toMatchObject({
      uuid: booking.uuid,
      booking_comment: 'Latexallergy please',
      order: { amount_paid: 9000 },
    });
    expect(document.bookings[0].history.map((entry: { action: string }) => entry.action)).toContain(
      'created',
    );
    expect(document.messages.length).toBeGreaterThan(0);
    const channels = new Set(document.messages.map((m: { channel: string }) => m.channel));
    expect(channels).toEqual(new Set(['email', 'sms']));
    expect(
      document.messages.every((m: { recipient: string }) => m.recipient === email || m.recipient === phone),
    ).toBe(true);
    expect(document.messages_received).toEqual([
      expect.objectContaining({ body: 'Hello, Latexallergy again' }),
    ]);
    // Booked through the API: never asked for text consent, so none is listed.
    expect(document.consents).toEqual([]);

    const erased = await t.call('POST', `/customers/${customerId}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().data).toMatchObject({
      uuid: customerId,
      phone: '',
      first_name: '',
      last_name: '',
      email: '',
    });

    for (const secret of [phone, phone.slice(1), email, 'Erikaerase', 'Mustermannerase', 'Latexallergy']) {
      expect(await placesHolding(secret), secret).toEqual([]);
    }
    // The money and the booking stay as they were.
    const after = await change(t, 'GET', `/bookings/${booking.uuid}`);
    expect(after.order).toEqual(done.order);
    expect(after.start_time).toBe(booking.start_time);
    expect(after.status).toEqual(done.status);

    // Again: the same answer, nothing more to do.
    const again = await t.call('POST', `/customers/${customerId}/erase`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.updated_at).toBe(erased.json().data.updated_at);
    const exportedAfter = (await t.call('GET', `/customers/${customerId}/export`)).json();
    expect(exportedAfter.customer.erased_at).not.toBeNull();
    expect(exportedAfter.messages).toEqual([]);

    // The old number books as a new customer.
    const next = await book(t, bookingBody(f, at(s.nextDay(), '11:00'), { customer_phone: phone }));
    expect(next.customer.uuid).not.toBe(customerId);
    expect(next.customer.phone).toBe(phone);
  });

  it('answers 404 for a customer the workspace does not have', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await s.t.call('GET', `/customers/${unknown}/export`)).statusCode).toBe(404);
    expect((await s.t.call('POST', `/customers/${unknown}/erase`)).statusCode).toBe(404);
  });

  it('the retention sweep erases only customers with no booking in the period, only where set', async () => {
    const { t, f } = s;
    const old = await book(t, bookingBody(f, at(s.nextDay(), '09:00'), { customer_phone: '+4915170000001' }));
    const recent = await book(
      t,
      bookingBody(f, at(s.nextDay(), '09:00'), { customer_phone: '+4915170000002' }),
    );
    // The store stamps created_at with its own now(), not the test's clock: put them at the clock.
    await t.db
      .updateTable('customers')
      .set({ created_at: new Date(s.clock.now()) })
      .where('workspace_id', '=', t.workspace.id)
      .where('id', 'in', [old.customer.uuid, recent.customer.uuid])
      .execute();
    const sweepAt = (iso: string) =>
      sweepRetention({
        db: t.db,
        uow: openWritePath(t.db).uow,
        now: Date.parse(iso),
        linkBase: 'http://kairos.test',
      });

    // Not opted in: nothing happens, however old.
    expect(await sweepAt('2030-01-01T00:00:00Z')).toBe(0);

    await t.db
      .updateTable('workspaces')
      .set({ customer_retention_months: 6 })
      .where('id', '=', t.workspace.id)
      .execute();
    // Six months after the first booking but not the second: only the first customer goes.
    const firstStart = Date.parse(old.start_time);
    const between = new Date(Date.parse(recent.start_time));
    between.setUTCMonth(between.getUTCMonth() + 6);
    between.setUTCHours(between.getUTCHours() - 1);
    expect(firstStart).toBeLessThan(retentionCutoff(between.getTime(), 6).getTime());
    const erasedNow = await sweepAt(between.toISOString());
    expect(erasedNow).toBeGreaterThanOrEqual(1);
    const customer = async (id: string) => (await t.call('GET', `/customers/${id}`)).json().data;
    expect((await customer(old.customer.uuid)).phone).toBe('');
    expect((await customer(recent.customer.uuid)).phone).toBe('+4915170000002');
    await t.db
      .updateTable('workspaces')
      .set({ customer_retention_months: null })
      .where('id', '=', t.workspace.id)
      .execute();
  });
});

describe('scrubbing rules', () => {
  const personal = { phone: '+4915100000000', email: 'a@example.com' };

  it('empties customer objects, customer_* texts, comments and exact matches, and keeps the rest', () => {
    const { value, changed } = scrubPersonal(
      {
        data: {
          booking: {
            uuid: 'b1',
            staffer: { first_name: 'Anna', last_name: 'Staff' },
            customer: {
              uuid: 'c1',
              phone: personal.phone,
              first_name: 'Eve',
              last_name: 'E',
              email: 'a@example.com',
            },
            booking_comment: 'private',
            order: { total: 9000 },
          },
        },
        customer_first_name: 'Eve',
        customerName: 'Eve E',
        customers: 3,
        'booking_attributes.booking_comment': 'private',
        note: `call ${personal.phone}`,
        to: 'a@example.com',
      },
      personal,
    );
    expect(changed).toBe(true);
    expect(value).toEqual({
      data: {
        booking: {
          uuid: 'b1',
          staffer: { first_name: 'Anna', last_name: 'Staff' },
          customer: { uuid: 'c1', phone: '', first_name: '', last_name: '', email: '' },
          booking_comment: '',
          order: { total: 9000 },
        },
      },
      customer_first_name: '',
      customerName: '',
      customers: 3,
      'booking_attributes.booking_comment': '',
      // Only whole values are matched inside JSON: free text under another key is not ours to parse.
      note: `call ${personal.phone}`,
      to: '',
    });
  });

  it('reports no change for a document without personal data', () => {
    expect(scrubPersonal({ a: 1, customer: { uuid: 'x', phone: '' } }, personal).changed).toBe(false);
  });

  it('scrubs a non-JSON text by removing the phone and the email', () => {
    expect(scrubText(`phone=${encodeURIComponent(personal.phone)}&m=a@example.com`, personal)).toEqual({
      value: 'phone=&m=',
      changed: true,
    });
  });

  it.each([
    ['2026-03-31T10:00:00Z', 1, '2026-02-28T10:00:00.000Z'],
    ['2028-03-31T10:00:00Z', 1, '2028-02-29T10:00:00.000Z'],
    ['2026-08-15T00:00:00Z', 6, '2026-02-15T00:00:00.000Z'],
    ['2026-01-31T23:59:00Z', 13, '2024-12-31T23:59:00.000Z'],
  ])('the retention cutoff of %s less %i months is %s', (now, months, expected) => {
    expect(retentionCutoff(Date.parse(now), months).toISOString()).toBe(expected);
  });
});
