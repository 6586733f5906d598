import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { createLocation, createService, createStaffer } from '../../test/helpers/factories.js';
import { formatMoney } from '../platform/money.js';
import { presentDuration } from '../platform/time/duration.js';

let t: TestApp;
let locationA: string;
let locationB: string;
let archivedLocation: string;
let otherLocation: string;
let otherService: string;

beforeAll(async () => {
  t = await buildTestApp();
  const ws = t.workspace.id;
  locationA = (await createLocation(t.db, ws, { name: 'A' })).id;
  locationB = (await createLocation(t.db, ws, { name: 'B' })).id;
  archivedLocation = (await createLocation(t.db, ws, { name: 'Gone' })).id;
  await t.db
    .updateTable('locations')
    .set({ archived_at: new Date() })
    .where('id', '=', archivedLocation)
    .execute();
  const other = await createOtherWorkspace(t.db);
  otherLocation = (await createLocation(t.db, other.workspace.id)).id;
  otherService = (await createService(t.db, other.workspace.id, [otherLocation], { name: 'Theirs' })).id;
});
afterAll(() => t.close());

interface ServiceJson {
  uuid: string;
  name: string;
  category: { uuid: string; name: string; order: number } | null;
  location_uuids: string[];
  price: number;
}

async function create(body: Record<string, unknown>): Promise<ServiceJson> {
  const response = await t.call('POST', '/services', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

async function serviceCount(): Promise<number> {
  const row = await t.db.selectFrom('services').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A uuid of another workspace must answer exactly like one that exists nowhere. */
async function expectLikeUnknown(
  method: string,
  path: (uuid: string) => string,
  foreignUuid: string,
  body?: unknown,
) {
  const foreign = await t.call(method, path(foreignUuid), body);
  const unknown = await t.call(method, path(randomUUID()), body);
  expect(foreign.statusCode).toBe(404);
  expect(unknown.statusCode).toBe(404);
  expect(foreign.json()).toEqual(unknown.json());
  expect(foreign.json().code).toBe('not_found');
}

describe('money and duration presentation', () => {
  it("formats minor units with the currency's own fraction digits", () => {
    const plain = (s: string) => s.replace(/\s/g, ' ');
    expect(formatMoney(9000, 'EUR', 'en-US')).toBe('€90.00');
    expect(formatMoney(1999, 'USD', 'en-US')).toBe('$19.99');
    expect(formatMoney(1500, 'JPY', 'en-US')).toBe('¥1,500');
    expect(plain(formatMoney(1500, 'KWD', 'en-US'))).toBe('KWD 1.500');
    expect(plain(formatMoney(9000, 'EUR', 'de-DE'))).toBe('90,00 €');
  });

  it('gives ISO 8601 durations', () => {
    expect(presentDuration(60)).toEqual({ value: 60, label: 'minutes', iso_8601: 'PT1H' });
    expect(presentDuration(45).iso_8601).toBe('PT45M');
    expect(presentDuration(90).iso_8601).toBe('PT1H30M');
    expect(presentDuration(1440).iso_8601).toBe('PT24H');
  });
});

describe('POST /services and GET /services/{uuid}', () => {
  it('creates a service with its category and locations: 201 with the full shape', async () => {
    const response = await t.call('POST', '/services', {
      name: ' Colouring ',
      description: 'Full colour',
      price: 12050,
      duration_minutes: 90,
      capacity: 1,
      buffer_before_minutes: 5,
      buffer_after_minutes: 10,
      category: 'Hair',
      location_uuids: [locationA, locationB],
      surprise: true,
    });
    expect(response.statusCode).toBe(201);
    const data = response.json().data;
    expect(data).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Colouring',
      description: 'Full colour',
      category: { uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Hair', order: 1 },
      currency: 'EUR',
      price: 12050,
      price_formatted: '€120.50',
      duration: { value: 90, label: 'minutes', iso_8601: 'PT1H30M' },
      capacity: 1,
      buffer_before: 5,
      buffer_after: 10,
      location_uuids: [locationA, locationB],
      // A service needs a staffer unless told (docs/resources.md "Rentals").
      staffer_needed: true,
      // A service needs no resources unless told (docs/resources.md).
      resources: [],
    });
    const read = await t.call('GET', `/services/${data.uuid}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data });
  });

  it('fills defaults and reuses a category of the same name', async () => {
    const first = await create({ name: 'Trim', duration_minutes: 45, category: 'Nails' });
    const second = await create({ name: 'Polish', duration_minutes: 30, category: 'Nails', price: 0 });
    expect(second.category?.uuid).toBe(first.category?.uuid);
    const categories = await t.db
      .selectFrom('service_categories')
      .select('id')
      .where('workspace_id', '=', t.workspace.id)
      .where('name', '=', 'Nails')
      .execute();
    expect(categories).toHaveLength(1);
    expect(first).toMatchObject({
      description: '',
      price: 0,
      price_formatted: '€0.00',
      duration: { value: 45, label: 'minutes', iso_8601: 'PT45M' },
      capacity: 1,
      buffer_before: 0,
      buffer_after: 0,
      location_uuids: [],
    });
  });

  it("formats prices in the workspace's currency and locale", async () => {
    await t.db
      .updateTable('workspaces')
      .set({ currency: 'JPY', locale: 'ja-JP' })
      .where('id', '=', t.workspace.id)
      .execute();
    try {
      const service = await create({ name: 'Tea', duration_minutes: 30, price: 1500 });
      const read = (await t.call('GET', `/services/${service.uuid}`)).json().data;
      expect(read.currency).toBe('JPY');
      expect(read.price).toBe(1500);
      expect(read.price_formatted).toMatch(/^[¥￥]1,500$/);
    } finally {
      await t.db
        .updateTable('workspaces')
        .set({ currency: 'EUR', locale: 'en-US' })
        .where('id', '=', t.workspace.id)
        .execute();
    }
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['missing name and duration', {}, ['name', 'duration_minutes']],
    ['a blank name', { name: '  ', duration_minutes: 30 }, ['name']],
    ['a negative price', { name: 'X', duration_minutes: 30, price: -1 }, ['price']],
    ['a fractional price', { name: 'X', duration_minutes: 30, price: 10.5 }, ['price']],
    ['a zero duration', { name: 'X', duration_minutes: 0 }, ['duration_minutes']],
    ['a duration over a day', { name: 'X', duration_minutes: 1441 }, ['duration_minutes']],
    ['a zero capacity', { name: 'X', duration_minutes: 30, capacity: 0 }, ['capacity']],
    [
      'buffers out of range',
      { name: 'X', duration_minutes: 30, buffer_before_minutes: -1, buffer_after_minutes: 721 },
      ['buffer_before_minutes', 'buffer_after_minutes'],
    ],
    [
      'a malformed location uuid',
      { name: 'X', duration_minutes: 30, location_uuids: ['nope'] },
      ['location_uuids.0'],
    ],
  ];
  for (const [what, body, fields] of invalid) {
    it(`answers 422 naming the field for ${what}`, async () => {
      const before = await serviceCount();
      const response = await t.call('POST', '/services', body);
      expect(response.statusCode).toBe(422);
      const json = response.json();
      expect(json).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
      expect(Object.keys(json.errors).sort()).toEqual([...fields].sort());
      expect(await serviceCount()).toBe(before);
    });
  }

  it('answers 422 naming each location that is unknown, archived or foreign, writing nothing', async () => {
    const before = await serviceCount();
    const response = await t.call('POST', '/services', {
      name: 'X',
      duration_minutes: 30,
      category: 'Never created',
      location_uuids: [locationA, randomUUID(), archivedLocation, otherLocation],
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual([
      'location_uuids.1',
      'location_uuids.2',
      'location_uuids.3',
    ]);
    expect(await serviceCount()).toBe(before);
    const category = await t.db
      .selectFrom('service_categories')
      .select('id')
      .where('name', '=', 'Never created')
      .executeTakeFirst();
    expect(category).toBeUndefined();
  });

  it("answers 404 for another workspace's service exactly like for an unknown one", async () => {
    await expectLikeUnknown('GET', (uuid) => `/services/${uuid}`, otherService);
  });
});

describe('PATCH /services/{uuid}', () => {
  it('changes only the fields given', async () => {
    const created = await create({
      name: 'Cut',
      duration_minutes: 30,
      price: 2000,
      category: 'Hair',
      location_uuids: [locationA],
    });
    const response = await t.call('PATCH', `/services/${created.uuid}`, { price: 2500, category: null });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      name: 'Cut',
      price: 2500,
      price_formatted: '€25.00',
      category: null,
      location_uuids: [locationA],
    });
    expect(data.duration.value).toBe(30);
    expect((await t.call('GET', `/services/${created.uuid}`)).json().data).toEqual(data);
  });

  it('replaces the locations and drops staffer assignments at a location the service leaves', async () => {
    const created = await create({
      name: 'Massage',
      duration_minutes: 60,
      location_uuids: [locationA, locationB],
    });
    const staffer = await createStaffer(t.db, t.workspace.id, locationA, [created.uuid]);
    const response = await t.call('PATCH', `/services/${created.uuid}`, { location_uuids: [locationB] });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.location_uuids).toEqual([locationB]);
    const assignments = await t.db
      .selectFrom('staffer_services')
      .select('location_id')
      .where('staffer_id', '=', staffer.id)
      .execute();
    expect(assignments).toEqual([]);
  });

  it('answers 422 for a bad location and changes nothing', async () => {
    const created = await create({ name: 'Peel', duration_minutes: 20, location_uuids: [locationA] });
    const response = await t.call('PATCH', `/services/${created.uuid}`, {
      name: 'Renamed',
      location_uuids: [otherLocation],
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['location_uuids.0']);
    const read = (await t.call('GET', `/services/${created.uuid}`)).json().data;
    expect(read).toMatchObject({ name: 'Peel', location_uuids: [locationA] });
  });

  it("answers 404 for another workspace's service exactly like for an unknown one", async () => {
    await expectLikeUnknown('PATCH', (uuid) => `/services/${uuid}`, otherService, { name: 'Hijacked' });
    const theirs = await t.db
      .selectFrom('services')
      .select('name')
      .where('id', '=', otherService)
      .executeTakeFirstOrThrow();
    expect(theirs.name).toBe('Theirs');
  });
});

describe('DELETE /services/{uuid}', () => {
  it('archives: 204, then gone from GET and the location list, but the row is kept', async () => {
    const created = await create({ name: 'Old offer', duration_minutes: 30, location_uuids: [locationA] });
    const response = await t.call('DELETE', `/services/${created.uuid}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const read = await t.call('GET', `/services/${created.uuid}`);
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual((await t.call('GET', `/services/${randomUUID()}`)).json());
    const list = (await t.call('GET', `/locations/${locationA}/services?per_page=100`)).json();
    expect(list.data.map((s: ServiceJson) => s.uuid)).not.toContain(created.uuid);
    expect((await t.call('PATCH', `/services/${created.uuid}`, { price: 1 })).statusCode).toBe(404);
    expect((await t.call('DELETE', `/services/${created.uuid}`)).statusCode).toBe(404);
    const row = await t.db
      .selectFrom('services')
      .select(['name', 'archived_at'])
      .where('id', '=', created.uuid)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Old offer');
    expect(row.archived_at).toBeInstanceOf(Date);
  });

  it("answers 404 for another workspace's service exactly like for an unknown one", async () => {
    await expectLikeUnknown('DELETE', (uuid) => `/services/${uuid}`, otherService);
    const theirs = await t.db
      .selectFrom('services')
      .select('archived_at')
      .where('id', '=', otherService)
      .executeTakeFirstOrThrow();
    expect(theirs.archived_at).toBeNull();
  });
});

describe('GET /locations/{uuid}/services', () => {
  it('lists the live services of that location only, paginated in creation order', async () => {
    const fresh = await buildTestApp({ database: t.database });
    try {
      const ws = fresh.workspace.id;
      const here = (await createLocation(fresh.db, ws, { name: 'Here' })).id;
      const elsewhere = (await createLocation(fresh.db, ws, { name: 'Elsewhere' })).id;
      for (const name of ['S1', 'S2', 'S3']) await createService(fresh.db, ws, [here], { name });
      await createService(fresh.db, ws, [elsewhere], { name: 'Not here' });
      const archived = await createService(fresh.db, ws, [here], { name: 'Archived' });
      await fresh.db
        .updateTable('services')
        .set({ archived_at: new Date() })
        .where('id', '=', archived.id)
        .execute();

      const page1 = await fresh.call('GET', `/locations/${here}/services?per_page=2`);
      expect(page1.statusCode).toBe(200);
      const body = page1.json();
      expect(body.data.map((s: ServiceJson) => s.name)).toEqual(['S1', 'S2']);
      expect(body.data[0]).toMatchObject({ price: 9000, price_formatted: '€90.00', location_uuids: [here] });
      expect(body.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 3 });
      expect(new URL(body.links.next, 'http://localhost').search).toBe('?per_page=2&page=2');
      expect(body.links.prev).toBeNull();
      const page2 = (await fresh.call('GET', `/locations/${here}/services?per_page=2&page=2`)).json();
      expect(page2.data.map((s: ServiceJson) => s.name)).toEqual(['S3']);
      const beyond = (await fresh.call('GET', `/locations/${here}/services?per_page=2&page=5`)).json();
      expect(beyond.data).toEqual([]);
      expect(beyond.meta.total).toBe(3);
    } finally {
      await fresh.close();
    }
  });

  it("answers 404 for another workspace's or an archived location exactly like for an unknown one", async () => {
    await expectLikeUnknown('GET', (uuid) => `/locations/${uuid}/services`, otherLocation);
    const archived = await t.call('GET', `/locations/${archivedLocation}/services`);
    expect(archived.statusCode).toBe(404);
    expect(archived.json()).toEqual((await t.call('GET', `/locations/${randomUUID()}/services`)).json());
  });
});
