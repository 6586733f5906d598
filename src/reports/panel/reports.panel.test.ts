import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../../test/helpers/build-test-app.js';
import { FixedClock } from '../../../test/helpers/clock.js';
import {
  createLocation,
  createPaymentAccount,
  createService,
  createStaffer,
  WEEKDAYS_9_TO_17,
} from '../../../test/helpers/factories.js';
import { makeUser, memberSpeaking, PanelClient } from '../../../test/helpers/panel-client.js';

/**
 * Reports in the panel through the real app: owners and admins only, each report with its chart
 * (SVG drawn on the server) and the same figures in a table, a CSV per table, and a period that
 * is refused with its reason rather than guessed.
 */
const clock = new FixedClock('2026-03-20T08:00:00Z');
let t: TestApp;
let owner: PanelClient;
let admin: PanelClient;
let staff: PanelClient;
let berlin: { id: string };
const PERIOD = 'from=2026-03-23&to=2026-03-29';

beforeAll(async () => {
  t = await buildTestApp({ clock });
  berlin = await createLocation(t.db, t.workspace.id, { name: 'Berlin', timezone: 'Europe/Berlin' });
  await createLocation(t.db, t.workspace.id, { name: 'Hamburg', timezone: 'Europe/Berlin' });
  const cut = await createService(t.db, t.workspace.id, [berlin.id], { name: 'Cut', price: 9000 });
  const anna = await createStaffer(t.db, t.workspace.id, berlin.id, [cut.id], {
    firstName: 'Anna',
    lastName: 'Berg',
    weekly: WEEKDAYS_9_TO_17,
  });
  const cash = await createPaymentAccount(t.db, t.workspace.id, berlin.id, { name: 'Cash desk' });
  const created = await t.call('POST', '/bookings', {
    location_uuid: berlin.id,
    staffer_uuid: anna.id,
    service_uuid: cut.id,
    reserved_on: '2026-03-24T10:00:00+01:00',
    customer_phone: '+4915100000009',
  });
  expect(created.statusCode, created.body).toBe(201);
  const booking = created.json().data;
  const done = await t.call('PUT', `/bookings/${booking.uuid}/status/complete`, {
    account_uuid: cash.id,
    paid_amount: 9000,
  });
  expect(done.statusCode, done.body).toBe(200);
  await sql`UPDATE payments SET created_at = '2026-03-24T11:00:00Z'::timestamptz
            WHERE workspace_id = ${t.workspace.id}`.execute(t.db);
  owner = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'owner' }]),
  );
  admin = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'admin' }]),
  );
  staff = await PanelClient.signedIn(
    t.app,
    t.db,
    await makeUser(t.db, [{ workspaceId: t.workspace.id, role: 'staff' }]),
  );
});
afterAll(() => t.close());

describe('Reports', () => {
  it('opens on revenue, with the chart and the table of the same figures, for owners and admins', async () => {
    const start = await owner.get('/panel/reports');
    expect(start.statusCode).toBe(303);
    expect(start.headers.location).toBe('/panel/reports/revenue');
    for (const client of [owner, admin]) {
      const page = await client.get(`/panel/reports/revenue?${PERIOD}`);
      expect(page.statusCode, page.body).toBe(200);
      expect(page.body).toContain('<svg viewBox=');
      expect(page.body).toMatch(
        /<th scope="row">Tue Mar 24<\/th><td class="num">€90\.00<\/td><td class="num">1<\/td>/,
      );
      expect(page.body).toMatch(/<th scope="row">Anna Berg<\/th><td class="num">€90\.00<\/td>/);
      expect(page.body).toMatch(/<tfoot><tr><th scope="row">Total<\/th><td class="num">€90\.00<\/td>/);
      // The location filter lists both live locations; the tabs keep the period.
      expect(page.body).toContain('>Hamburg</option>');
      expect(page.body).toContain(
        `href="/panel/reports/utilisation?from=2026-03-23&amp;to=2026-03-29&amp;group=day"`,
      );
    }
  });

  it('is not for staff, and not in their navigation', async () => {
    expect((await staff.get(`/panel/reports/revenue?${PERIOD}`)).statusCode).toBe(403);
    expect((await staff.get('/panel/reports/revenue/staffer.csv')).statusCode).toBe(403);
    expect((await staff.get('/panel')).body).not.toContain('href="/panel/reports"');
    expect((await owner.get('/panel')).body).toContain('href="/panel/reports"');
  });

  it('exports each table as CSV: plain amounts, dates as dates, a total row', async () => {
    const staffer = await owner.get(`/panel/reports/revenue/staffer.csv?${PERIOD}`);
    expect(staffer.statusCode).toBe(200);
    expect(staffer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(staffer.headers['content-disposition']).toBe(
      'attachment; filename="revenue-staffer-2026-03-23-2026-03-29.csv"',
    );
    expect(
      staffer.body
        .replace(/^\ufeff/, '')
        .trim()
        .split(/\r?\n/),
    ).toEqual(['By staffer,Revenue (EUR),Payments', 'Anna Berg,90.00,1', 'Total,90.00,1']);
    const days = await owner.get(`/panel/reports/revenue/period.csv?${PERIOD}`);
    expect(days.body).toContain('2026-03-24,90.00,1');
    expect(days.body).toContain('2026-03-25,0.00,0');
    expect((await owner.get(`/panel/reports/revenue/nothing.csv?${PERIOD}`)).statusCode).toBe(404);
  });

  it('refuses a period it cannot read, saying why, and shows the last 30 days instead', async () => {
    const backwards = await owner.get('/panel/reports/cancellations?from=2026-03-29&to=2026-03-23');
    expect(backwards.statusCode).toBe(422);
    expect(backwards.body).toContain('The period ends before it starts.');
    const long = await owner.get('/panel/reports/customers?from=2024-01-01&to=2026-01-01');
    expect(long.statusCode).toBe(422);
    expect(long.body).toContain('A period is at most 366 days.');
    expect((await owner.get('/panel/reports/everything')).statusCode).toBe(404);
  });

  it('answers every report, and ignores a location of another workspace', async () => {
    const other = await createOtherWorkspace(t.db);
    const foreign = await createLocation(t.db, other.workspace.id, { name: 'Elsewhere' });
    for (const kind of ['revenue', 'sources', 'utilisation', 'cancellations', 'customers', 'lead-time']) {
      const page = await owner.get(`/panel/reports/${kind}?${PERIOD}&location=${foreign.id}`);
      expect(page.statusCode, `${kind}: ${page.body}`).toBe(200);
      expect(page.body).not.toContain('Elsewhere');
    }
    const utilisation = await owner.get(`/panel/reports/utilisation?${PERIOD}&location=${berlin.id}`);
    // Five weekdays of eight hours; one hour booked: 2.5 %.
    expect(utilisation.body).toMatch(/<th scope="row">Anna Berg<\/th><td class="num">2\.5%<\/td>/);
  });
});

describe('Reports in other languages', () => {
  it('speak German to a German-speaking owner and lay out right to left in Arabic', async () => {
    const german = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'de');
    const revenue = (await german.get(`/panel/reports/revenue?${PERIOD}`)).body;
    expect(revenue).toContain('<h1>Berichte</h1>');
    expect(revenue).toContain('>Umsatz</a>');
    expect(revenue).toContain('<button type="submit">Anzeigen</button>');
    const arabic = await memberSpeaking(t.app, t.db, t.workspace.id, 'owner', 'ar');
    const page = (await arabic.get(`/panel/reports/revenue?${PERIOD}`)).body;
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain('<h1>التقارير</h1>');
  });
});
