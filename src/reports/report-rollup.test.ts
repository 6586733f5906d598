import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import {
  createLocation,
  createPaymentAccount,
  createService,
  createStaffer,
  WEEKDAYS_9_TO_17,
} from '../../test/helpers/factories.js';
import { recordPayment } from '../payments/payments.repository.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { ReportPeriod } from './report-period.rules.js';
import { buildReport, REPORT_KINDS, type Report } from './reports.service.js';

/**
 * The day sums stay exact (migration 0040, report-rollup.repository.ts): after changes of every
 * kind made through the API on days already rolled up, every report equals the same report
 * computed from scratch (the sums wiped, every day recomputed from the bookings and payments), and
 * the money still adds up to what the orders say. The bookings are made by the API, so they are
 * made on the store's own day, which the period spans too.
 */
const clock = new FixedClock('2026-03-20T08:00:00Z');
let t: TestApp;
const ids: Record<string, string> = {};
const period: ReportPeriod = {
  from: '2026-03-01',
  to: '2027-12-31',
  grouping: 'month',
  locationId: undefined,
};

async function call(method: string, path: string, body?: unknown) {
  const response = await t.call(method, path, body);
  expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
  return response.json().data;
}

async function book(name: string, location: string, staffer: string, at: string, phone: string) {
  const booking = await call('POST', '/bookings', {
    location_uuid: ids[location],
    staffer_uuid: ids[staffer],
    service_uuid: ids.cut,
    reserved_on: at,
    customer_phone: phone,
    customer_first_name: name,
  });
  ids[name] = booking.uuid;
}

async function allReports(locationId?: string): Promise<Report[]> {
  const reports: Report[] = [];
  for (const kind of REPORT_KINDS)
    reports.push(await buildReport(t.db, t.workspace.id, kind, { ...period, locationId }));
  return reports;
}

async function wipeDaySums(): Promise<void> {
  for (const table of ['report_day_sums', 'report_days', 'report_changes'])
    await sql`DELETE FROM ${sql.table(table)} WHERE workspace_id = ${t.workspace.id}`.execute(t.db);
}

async function rolledUpDays(): Promise<number> {
  const result = await sql<{ n: number }>`SELECT count(*)::int AS n FROM report_days
    WHERE workspace_id = ${t.workspace.id}`.execute(t.db);
  return result.rows[0]!.n;
}

const revenueTotal = (reports: Report[]) =>
  reports.find((report) => report.kind === 'revenue')!.tables.find((table) => table.id === 'period')!
    .total![0];

beforeAll(async () => {
  t = await buildTestApp({ clock });
  const berlin = await createLocation(t.db, t.workspace.id, { name: 'Berlin', timezone: 'Europe/Berlin' });
  const newYork = await createLocation(t.db, t.workspace.id, {
    name: 'New York',
    timezone: 'America/New_York',
  });
  const cut = await createService(t.db, t.workspace.id, [berlin.id, newYork.id], {
    name: 'Cut',
    price: 3000,
  });
  const colour = await createService(t.db, t.workspace.id, [berlin.id], { name: 'Colour', price: 6000 });
  const staffer = (location: string, first: string) =>
    createStaffer(t.db, t.workspace.id, location, [cut.id, colour.id], {
      firstName: first,
      lastName: 'Test',
      weekly: WEEKDAYS_9_TO_17,
    });
  Object.assign(ids, {
    berlin: berlin.id,
    newYork: newYork.id,
    cut: cut.id,
    colour: colour.id,
    anna: (await staffer(berlin.id, 'Anna')).id,
    carl: (await staffer(berlin.id, 'Carl')).id,
    ben: (await staffer(newYork.id, 'Ben')).id,
    cash: (await createPaymentAccount(t.db, t.workspace.id, berlin.id, { name: 'Cash' })).id,
    card: (await createPaymentAccount(t.db, t.workspace.id, berlin.id, { name: 'Card', type: 'card' })).id,
    nyCash: (await createPaymentAccount(t.db, t.workspace.id, newYork.id, { name: 'NY cash' })).id,
  });
  await book('ada', 'berlin', 'anna', '2026-03-23T09:00:00Z', '+4915100000101');
  await book('bea', 'berlin', 'anna', '2026-03-24T09:00:00Z', '+4915100000102');
  await book('cem', 'berlin', 'carl', '2026-03-25T09:00:00Z', '+4915100000103');
  await book('dan', 'newYork', 'ben', '2026-03-26T14:00:00Z', '+4915100000104');
  await book('eva', 'berlin', 'carl', '2026-03-27T09:00:00Z', '+4915100000105');
  await book('fay', 'newYork', 'ben', '2026-03-27T15:00:00Z', '+4915100000106');
});

afterAll(async () => {
  await t?.close();
});

describe('the reports’ day sums', () => {
  it('a day never rolled up is computed before it is read, once', async () => {
    expect(await rolledUpDays()).toBe(0);
    const first = await allReports();
    // 2026-03-01 to 2027-12-31: 671 days at each of the two locations.
    expect(await rolledUpDays()).toBe(1342);
    const again = await allReports();
    expect(again).toEqual(first);
    const cancellations = first.find((report) => report.kind === 'cancellations')!;
    expect(cancellations.tables[0]!.total![0]).toBe(6);
  });

  it('after changes of every kind on days already rolled up, every report equals the one computed from scratch', async () => {
    await allReports();
    // Moved to another day, canceled, not attended, another staffer, other services, paid, a
    // provider's refund, a customer erased, a booking made, a location's zone changed.
    await call('PUT', `/bookings/${ids.ada}/reschedule`, { reserved_on: '2026-03-30T10:00:00Z' });
    await call('PUT', `/bookings/${ids.bea}/status/cancel`, { cancel_reason: 'canceled' });
    await call('PUT', `/bookings/${ids.cem}/status/cancel`, { cancel_reason: 'didnt_come' });
    await call('PUT', `/bookings/${ids.eva}/staffer`, { staffer_uuid: ids.anna });
    await call('PUT', `/bookings/${ids.eva}/services`, { service_uuids: [ids.cut, ids.colour] });
    await call('PUT', `/bookings/${ids.eva}/status/complete`, { account_uuid: ids.card, paid_amount: 9001 });
    await call('PUT', `/bookings/${ids.ada}/status/complete`, { account_uuid: ids.cash, paid_amount: 3000 });
    await call('PUT', `/bookings/${ids.dan}/status/complete`, {
      account_uuid: ids.nyCash,
      paid_amount: 2500,
    });
    const other = await sql<{ id: string }>`SELECT id FROM booking_statuses
      WHERE workspace_id = ${t.workspace.id} AND NOT is_default LIMIT 1`.execute(t.db);
    await call('PUT', `/bookings/${ids.fay}/status`, { status_uuid: other.rows[0]!.id });
    // A provider's refund, written as the payment worker writes it.
    await t.db.transaction().execute((tx) =>
      recordPayment(tx as Tx, {
        workspaceId: t.workspace.id,
        bookingId: ids.eva!,
        accountId: ids.card!,
        provider: 'stripe',
        reference: 're_test_1',
        kind: 'refund',
        amount: 1001,
        status: 'succeeded',
      }),
    );
    const customer = (await call('GET', `/bookings/${ids.cem}`)).customer.uuid;
    await call('POST', `/customers/${customer}/erase`);
    await book('gil', 'berlin', 'carl', '2026-03-31T09:00:00Z', '+4915100000107');
    await call('PATCH', `/locations/${ids.newYork}`, { timezone: 'America/Los_Angeles' });

    const kept = await allReports();
    const berlinOnly = await allReports(ids.berlin);
    await wipeDaySums();
    expect(await rolledUpDays()).toBe(0);
    expect(await allReports()).toEqual(kept);
    expect(await allReports(ids.berlin)).toEqual(berlinOnly);

    // And the money is what the orders took: 9001 - 1001 + 3000 + 2500.
    let fromOrders = 0;
    for (const name of ['ada', 'dan', 'eva']) {
      const booking = await call('GET', `/bookings/${ids[name]}`);
      fromOrders += (await call('GET', `/orders/${booking.order.uuid}`)).amount_paid;
    }
    expect(fromOrders).toBe(13500);
    expect(revenueTotal(kept)).toBe(13500);
    const cancellations = kept.find((report) => report.kind === 'cancellations')!;
    // Seven bookings: one canceled, one not attended.
    expect(cancellations.tables[0]!.total!.slice(0, 3)).toEqual([7, 1, 1]);
  });

  it('reports read while bookings are made and paid end up equal to the ones computed from scratch', async () => {
    await allReports();
    const writes = (async () => {
      for (let i = 0; i < 4; i++) {
        const name = `w${i}`;
        await book(
          name,
          'berlin',
          i % 2 === 0 ? 'anna' : 'carl',
          `2026-04-0${i + 6}T09:00:00Z`,
          `+49151000002${i}0`,
        );
        await call('PUT', `/bookings/${ids[name]}/status/complete`, {
          account_uuid: ids.cash,
          paid_amount: 1000,
        });
      }
    })();
    const reads = (async () => {
      for (let i = 0; i < 4; i++) await buildReport(t.db, t.workspace.id, 'revenue', period);
    })();
    await Promise.all([writes, reads]);
    const kept = await allReports();
    await wipeDaySums();
    expect(await allReports()).toEqual(kept);
    expect(revenueTotal(kept)).toBe(13500 + 4000);
  });

  it('two readers of days not rolled up recompute them once between them', async () => {
    await wipeDaySums();
    const [a, b] = await Promise.all([
      buildReport(t.db, t.workspace.id, 'revenue', period),
      buildReport(t.db, t.workspace.id, 'revenue', period),
    ]);
    expect(a).toEqual(b);
    expect(revenueTotal([a])).toBe(17500);
    const sums = await sql<{ n: number }>`SELECT count(*)::int AS n FROM (
        SELECT location_id, day, measure, key FROM report_day_sums WHERE workspace_id = ${t.workspace.id}
        GROUP BY 1, 2, 3, 4 HAVING count(*) > 1) doubled`.execute(t.db);
    expect(sums.rows[0]!.n).toBe(0);
    expect(await rolledUpDays()).toBe(1342);
  });
});
