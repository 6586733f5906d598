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
import type { ReportPeriod } from './report-period.rules.js';
import { noteBookingDays } from './report-rollup.repository.js';
import { buildReport, type Report, type ReportTable } from './reports.service.js';

/**
 * The reports against a real store, through bookings made and paid with the real API. Two
 * locations half a world apart: a payment taken at 23:30 UTC on Saturday 28 March 2026 is Sunday
 * in Berlin (00:30, the night the clocks go forward), and one taken at 02:30 UTC on Monday 30
 * March is still Sunday in New York (22:30). When things happened (a payment taken, a booking
 * made) is set in the store: the API records the store's own clock, not the test's.
 */
const clock = new FixedClock('2026-03-20T08:00:00Z');
let t: TestApp;
const ids: Record<string, string> = {};

async function call(method: string, path: string, body?: unknown) {
  const response = await t.call(method, path, body);
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json().data;
}

async function book(name: string, body: Record<string, unknown>, cart?: string[]) {
  const booking = cart
    ? await call('POST', '/bookings/cart', {
        location_uuid: body.location_uuid,
        customer_phone: body.customer_phone,
        customer_first_name: body.customer_first_name,
        items: [{ reserved_on: body.reserved_on, staffer_uuid: body.staffer_uuid, service_uuids: cart }],
      })
    : await call('POST', '/bookings', body);
  ids[name] = Array.isArray(booking) ? booking[0].uuid : booking.uuid;
}

async function pay(name: string, account: string, amount: number, at: string) {
  await call('PUT', `/bookings/${ids[name]}/status/complete`, {
    account_uuid: ids[account],
    paid_amount: amount,
  });
  await sql`UPDATE payments SET created_at = ${at}::timestamptz
            WHERE workspace_id = ${t.workspace.id} AND booking_id = ${ids[name]}`.execute(t.db);
}

const week: ReportPeriod = { from: '2026-03-23', to: '2026-03-29', grouping: 'day', locationId: undefined };

const table = (report: Report, id: string): ReportTable =>
  report.tables.find((candidate) => candidate.id === id)!;
const rowsByName = (report: Report, id: string) =>
  Object.fromEntries(
    table(report, id).rows.map((row) => [
      'name' in row.label ? row.label.name : 'word' in row.label ? row.label.word : row.label.date,
      row.values,
    ]),
  );

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
  const anna = await createStaffer(t.db, t.workspace.id, berlin.id, [cut.id, colour.id], {
    firstName: 'Anna',
    lastName: 'Berg',
    weekly: WEEKDAYS_9_TO_17,
  });
  const ben = await createStaffer(t.db, t.workspace.id, newYork.id, [cut.id], {
    firstName: 'Ben',
    lastName: 'Hudson',
    weekly: WEEKDAYS_9_TO_17,
  });
  Object.assign(ids, {
    berlin: berlin.id,
    newYork: newYork.id,
    cut: cut.id,
    colour: colour.id,
    anna: anna.id,
    ben: ben.id,
    berlinCash: (await createPaymentAccount(t.db, t.workspace.id, berlin.id, { name: 'Berlin cash' })).id,
    berlinCard: (
      await createPaymentAccount(t.db, t.workspace.id, berlin.id, { name: 'Berlin card', type: 'card' })
    ).id,
    nyCash: (await createPaymentAccount(t.db, t.workspace.id, newYork.id, { name: 'NY cash' })).id,
  });
  const at = (location: string, staffer: string, reserved_on: string, phone: string, first: string) => ({
    location_uuid: ids[location],
    staffer_uuid: ids[staffer],
    service_uuid: ids.cut,
    reserved_on,
    customer_phone: phone,
    customer_first_name: first,
  });
  // Nora came once before the week; Maria comes for the first time in it.
  await book('before', at('berlin', 'anna', '2026-03-20T14:00:00+01:00', '+4915100000001', 'Nora'));
  await book('maria1', at('berlin', 'anna', '2026-03-23T10:00:00+01:00', '+4915100000002', 'Maria'), [
    ids.cut!,
    ids.colour!,
  ]);
  await book('maria2', at('berlin', 'anna', '2026-03-24T10:00:00+01:00', '+4915100000002', 'Maria'));
  await book('nora', at('newYork', 'ben', '2026-03-23T10:00:00-04:00', '+4915100000001', 'Nora'));
  await book('otto', at('berlin', 'anna', '2026-03-25T11:00:00+01:00', '+4915100000003', 'Otto'));
  await book('paul', at('berlin', 'anna', '2026-03-26T11:00:00+01:00', '+4915100000004', 'Paul'));
  await call('PUT', `/bookings/${ids.otto}/status/cancel`, { cancel_reason: 'canceled' });
  await call('PUT', `/bookings/${ids.paul}/status/cancel`, { cancel_reason: 'didnt_come' });
  await pay('before', 'berlinCash', 5000, '2026-03-20T13:30:00Z');
  // 9001 over lines of 3000 and 6000: 3000.33 and 6000.67, the spare cent to the larger remainder.
  await pay('maria1', 'berlinCard', 9001, '2026-03-28T23:30:00Z');
  await pay('maria2', 'berlinCash', 3000, '2026-03-24T12:00:00Z');
  await pay('nora', 'nyCash', 3000, '2026-03-30T02:30:00Z');
  // Every booking was made on Friday 20 March at 09:00 UTC.
  await sql`UPDATE bookings SET created_at = '2026-03-20T09:00:00Z'::timestamptz
            WHERE workspace_id = ${t.workspace.id}`.execute(t.db);
});

afterAll(async () => {
  await t?.close();
});

describe('revenue', () => {
  it('places each payment on its location’s local day, and every breakdown adds up to what the orders took', async () => {
    const report = await buildReport(t.db, t.workspace.id, 'revenue', week);
    const byDay = rowsByName(report, 'period');
    expect(Object.keys(byDay)).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
    expect(byDay['2026-03-24']).toEqual([3000, 1]);
    expect(byDay['2026-03-28']).toEqual([0, 0]);
    expect(byDay['2026-03-29']).toEqual([12001, 2]);
    expect(rowsByName(report, 'staffer')).toEqual({ 'Anna Berg': [12001, 2], 'Ben Hudson': [3000, 1] });
    expect(rowsByName(report, 'service')).toEqual({ Cut: [9000], Colour: [6001] });
    expect(rowsByName(report, 'location')).toEqual({ Berlin: [12001, 2], 'New York': [3000, 1] });
    expect(rowsByName(report, 'account')).toEqual({
      'Berlin card': [9001, 1],
      'Berlin cash': [3000, 1],
      'NY cash': [3000, 1],
    });

    // The other way round: the orders of the bookings paid that week, read through the API.
    let fromOrders = 0;
    for (const name of ['maria1', 'maria2', 'nora']) {
      const booking = await call('GET', `/bookings/${ids[name]}`);
      const order = await call('GET', `/orders/${booking.order.uuid}`);
      fromOrders += order.amount_paid;
    }
    expect(fromOrders).toBe(15001);
    for (const id of ['period', 'staffer', 'service', 'location', 'account']) {
      expect(table(report, id).total![0], id).toBe(fromOrders);
      expect(
        table(report, id).rows.reduce((sum, row) => sum + (row.values[0] ?? 0), 0),
        id,
      ).toBe(fromOrders);
    }
  });

  it('by week and month folds the same days, and one location keeps only its own money', async () => {
    const byWeek = await buildReport(t.db, t.workspace.id, 'revenue', {
      ...week,
      from: '2026-03-16',
      grouping: 'week',
    });
    expect(rowsByName(byWeek, 'period')).toEqual({ '2026-03-16': [5000, 1], '2026-03-23': [15001, 3] });
    const byMonth = await buildReport(t.db, t.workspace.id, 'revenue', {
      from: '2026-03-01',
      to: '2026-03-31',
      grouping: 'month',
      locationId: ids.newYork,
    });
    expect(rowsByName(byMonth, 'period')).toEqual({ '2026-03-01': [3000, 1] });
    expect(rowsByName(byMonth, 'staffer')).toEqual({ 'Ben Hudson': [3000, 1] });
  });
});

describe('the booking reports', () => {
  it('cancellations: canceled and no-shows apart, with their rates in per mille', async () => {
    const report = await buildReport(t.db, t.workspace.id, 'cancellations', week);
    expect(table(report, 'period').total).toEqual([5, 1, 1, 200, 200]);
    expect(rowsByName(report, 'period')['2026-03-26']).toEqual([1, 0, 1, 0, 1000]);
    expect(rowsByName(report, 'reason')).toEqual({ 'reason.canceled': [1], 'reason.didnt_come': [1] });
  });

  it('customers: Maria is new, Nora (seen the week before) returns; canceled visits count for no one', async () => {
    const report = await buildReport(t.db, t.workspace.id, 'customers', week);
    expect(table(report, 'period').total).toEqual([1, 1, 2]);
    expect(rowsByName(report, 'period')['2026-03-23']).toEqual([1, 1, 2]);
  });

  it('utilisation: kept booked minutes over the working minutes of the schedule, per staffer', async () => {
    const report = await buildReport(t.db, t.workspace.id, 'utilisation', week);
    // Five weekdays of 9 to 17: 2,400 minutes each. Anna: a 120-minute cart and a 60-minute cut.
    expect(rowsByName(report, 'staffer')).toEqual({
      'Anna Berg': [75, 180, 2400],
      'Ben Hudson': [25, 60, 2400],
    });
    expect(table(report, 'staffer').total).toEqual([50, 240, 4800]);
  });

  it('sources and lead time read the bookings made in the period', async () => {
    const made: ReportPeriod = {
      from: '2026-03-20',
      to: '2026-03-20',
      grouping: 'day',
      locationId: undefined,
    };
    const sources = await buildReport(t.db, t.workspace.id, 'sources', made);
    const keyName = (
      await t.db
        .selectFrom('api_keys')
        .select('name')
        .where('workspace_id', '=', t.workspace.id)
        .executeTakeFirstOrThrow()
    ).name;
    // Six bookings, two canceled; worth 3000 each, the cart 9000.
    expect(rowsByName(sources, 'source')).toEqual({ [`API · ${keyName}`]: [6, 2, 24000] });
    const lead = await buildReport(t.db, t.workspace.id, 'lead-time', made);
    // Made Friday 09:00 UTC: 'before' 4 hours ahead; the others 72 (Maria's Monday, exactly three
    // days: the next band), 77 (Nora's Monday in New York), 96, 121 and 145 hours ahead.
    expect(rowsByName(lead, 'lead')).toEqual({
      'lead.day': [1, 167],
      'lead.days3': [0, 0],
      'lead.week': [5, 833],
      'lead.weeks2': [0, 0],
      'lead.weeks4': [0, 0],
      'lead.more': [0, 0],
    });
    // The median of six is the mean of the third and fourth: (77 + 96) / 2; the mean 515 / 6.
    expect(rowsByName(lead, 'leadSummary')).toEqual({ 'lead.median': [86.5], 'lead.mean': [85.8] });
  });

  it('a period with nothing in it answers zeros, not errors', async () => {
    const empty: ReportPeriod = {
      from: '2025-01-01',
      to: '2025-01-07',
      grouping: 'day',
      locationId: undefined,
    };
    for (const kind of [
      'revenue',
      'sources',
      'utilisation',
      'cancellations',
      'customers',
      'lead-time',
    ] as const) {
      const report = await buildReport(t.db, t.workspace.id, kind, empty);
      expect(report.tables.length, kind).toBeGreaterThan(0);
    }
    const revenue = await buildReport(t.db, t.workspace.id, 'revenue', empty);
    expect(table(revenue, 'period').total).toEqual([0, 0]);
  });
});

describe('refunds and failed charges', () => {
  it('a refund takes its money back on its own day, shared over the services like a payment; a failed charge counts for nothing', async () => {
    // 1001 back on Maria's two-line order, on Sunday in Berlin; a declined fee the same day.
    await sql`INSERT INTO payments (workspace_id, booking_id, payment_account_id, amount, kind, status, created_at)
              VALUES (${t.workspace.id}, ${ids.maria1}, ${ids.berlinCard}, 1001, 'refund', 'succeeded',
                      '2026-03-29T10:00:00Z'),
                     (${t.workspace.id}, ${ids.maria1}, ${ids.berlinCard}, 5000, 'no_show_fee', 'failed',
                      '2026-03-29T11:00:00Z')`.execute(t.db);
    // Written by hand, so noted by hand as every write of a payment notes its days for the
    // reports' day sums (the days rolled up by the tests above would otherwise stay as they were).
    await noteBookingDays(t.db, t.workspace.id, ids.maria1!);
    const report = await buildReport(t.db, t.workspace.id, 'revenue', week);
    expect(rowsByName(report, 'period')['2026-03-29']).toEqual([11000, 2]);
    // 1001 over 3000 and 6000: 333.67 and 667.33, the spare unit to the larger remainder.
    expect(rowsByName(report, 'service')).toEqual({ Cut: [9000 - 334], Colour: [6001 - 667] });
    const order = await call('GET', `/orders/${(await call('GET', `/bookings/${ids.maria1}`)).order.uuid}`);
    expect(order.amount_paid).toBe(8000);
    for (const id of ['period', 'staffer', 'service', 'location', 'account'])
      expect(table(report, id).total![0], id).toBe(15001 - 1001);
  });
});
