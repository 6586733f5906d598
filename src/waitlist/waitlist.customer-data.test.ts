import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, openStudio, type Studio } from '../../test/bookings/bookings-kit.js';

// Erasing a customer takes them off every waitlist (customer-data.repository.ts lists the
// waitlist as a place of their data); the JSON export shows their entries and offers.
let s: Studio;
beforeAll(async () => {
  s = await openStudio();
});
afterAll(() => s.t.close());

describe('the waitlist in a customer export and erasure', () => {
  it('exports the entries with their offers; erasing leaves the line, withdraws the offer and clears the wishes', async () => {
    const phone = '+4915177001122';
    const day = s.nextDay();
    const joined = await s.t.call(
      'POST',
      '/waitlist',
      {
        location_uuid: s.f.location.id,
        service_uuid: s.f.haircut.id,
        customer_phone: phone,
        customer_first_name: 'Wanda',
        windows: [{ date: day, from: '09:00', to: '12:00' }],
      },
      { 'idempotency-key': 'wait-erase-1' },
    );
    expect(joined.statusCode, joined.body).toBe(201);
    const entry = joined.json().data;
    const offer = await s.t.call('POST', `/waitlist/${entry.uuid}/offers`, {
      reserved_on: at(day, '10:00'),
      staffer_uuid: s.f.anna.id,
    });
    expect(offer.statusCode, offer.body).toBe(201);

    const exported = (await s.t.call('GET', `/customers/${entry.customer.uuid}/export`)).json();
    expect(exported.waitlist).toEqual([
      {
        uuid: entry.uuid,
        location_uuid: s.f.location.id,
        service_uuid: s.f.haircut.id,
        staffer_uuid: null,
        windows: [{ date: day, from: '09:00', to: '12:00' }],
        any_time: false,
        state: 'offered',
        booking_uuid: null,
        joined_at: '2026-09-01T08:00:00Z',
        offers: [
          {
            uuid: offer.json().data.uuid,
            start_time: at(day, '10:00'),
            held_until: '2026-09-01T08:30:00Z',
            state: 'open',
            booking_uuid: null,
            created_at: '2026-09-01T08:00:00Z',
          },
        ],
      },
    ]);

    const erased = await s.t.call('POST', `/customers/${entry.customer.uuid}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    const after = (await s.t.call('GET', `/waitlist/${entry.uuid}`)).json().data;
    expect(after).toMatchObject({ state: 'left', windows: [], customer: { phone: '', first_name: '' } });
    const offers = (await s.t.call('GET', `/waitlist/offers?entry_uuid=${entry.uuid}`)).json().data;
    expect(offers.map((o: { state: string }) => o.state)).toEqual(['withdrawn']);
    // The stored answer of the keyed join named them: scrubbed too.
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM idempotency_keys
      WHERE workspace_id = ${s.t.workspace.id} AND strpos(response_body::text, ${phone}) > 0`.execute(s.t.db);
    expect(rows[0]!.n).toBe(0);
    // Nobody waits any more: the line of the service is empty.
    expect((await s.t.call('GET', `/waitlist?service_uuid=${s.f.haircut.id}`)).json().data).toEqual([]);
  });
});
