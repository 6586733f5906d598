import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';
import { createStaffer } from '../helpers/factories.js';

/**
 * Lists keep one order on every store. Rows made in one transaction share created_at (and
 * bookings of one class their start): the order of such ties followed their random uuids, so
 * two stores seeded alike listed them differently. Here the ties are made on purpose.
 */
let t: TestApp;
const TIE = new Date('2026-03-01T09:00:00Z');

beforeAll(async () => {
  t = await buildTestApp({ clock: new FixedClock('2026-03-20T08:00:00Z') });
});
afterAll(() => t.close());

const names = async (path: string, field = 'name') =>
  ((await t.call('GET', path)).json().data as Record<string, string>[]).map((row) => row[field]);

describe('list order with ties', () => {
  it('locations, services and customers made at one instant list in the order they were made', async () => {
    const ws = t.workspace.id;
    await t.db.transaction().execute(async (tx) => {
      for (const name of ['Nord', 'Alster', 'Mitte', 'Hafen', 'Berg']) {
        await tx
          .insertInto('locations')
          .values({
            workspace_id: ws,
            name,
            timezone: 'Europe/Berlin',
            lat: null,
            lng: null,
            created_at: TIE,
          })
          .execute();
      }
    });
    expect(await names('/locations')).toEqual(['Nord', 'Alster', 'Mitte', 'Hafen', 'Berg']);

    const location = (await t.call('GET', '/locations')).json().data[0].uuid as string;
    await t.db.transaction().execute(async (tx) => {
      for (const name of ['Zeta', 'Alpha', 'Mu', 'Kappa']) {
        const service = await tx
          .insertInto('services')
          .values({ workspace_id: ws, name, duration_minutes: 30, category_id: null, created_at: TIE })
          .returning('id')
          .executeTakeFirstOrThrow();
        await tx
          .insertInto('service_locations')
          .values({ workspace_id: ws, service_id: service.id, location_id: location })
          .execute();
      }
    });
    expect(await names(`/locations/${location}/services`)).toEqual(['Zeta', 'Alpha', 'Mu', 'Kappa']);

    await t.db.transaction().execute(async (tx) => {
      for (const [i, first] of ['Yara', 'Bea', 'Omar', 'Ida'].entries()) {
        await tx
          .insertInto('customers')
          .values({ workspace_id: ws, phone: `+491517000010${i}`, first_name: first, created_at: TIE })
          .execute();
      }
    });
    expect(await names('/customers', 'first_name')).toEqual(['Yara', 'Bea', 'Omar', 'Ida']);
  });

  it('bookings of one start list in the order they were booked', async () => {
    const location = (await t.call('GET', '/locations')).json().data[0].uuid as string;
    const yoga = await t.db
      .insertInto('services')
      .values({
        workspace_id: t.workspace.id,
        name: 'Yoga',
        duration_minutes: 60,
        capacity: 6,
        category_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('service_locations')
      .values({ workspace_id: t.workspace.id, service_id: yoga.id, location_id: location })
      .execute();
    const teacher = await createStaffer(t.db, t.workspace.id, location, [yoga.id], { firstName: 'Tess' });
    const booked: string[] = [];
    for (const [i, first] of ['Uma', 'Cleo', 'Rex', 'Dan', 'Ali'].entries()) {
      const response = await t.call('POST', '/bookings', {
        reserved_on: '2026-03-23T09:00:00Z',
        location_uuid: location,
        service_uuid: yoga.id,
        staffer_uuid: teacher.id,
        customer_phone: `+491517000020${i}`,
        customer_first_name: first,
      });
      expect(response.statusCode, response.body).toBe(201);
      booked.push(first);
    }
    const listed = (await t.call('GET', '/bookings?per_page=50')).json().data as {
      customer: { first_name: string };
    }[];
    expect(listed.map((b) => b.customer.first_name)).toEqual(booked);
  });
});
