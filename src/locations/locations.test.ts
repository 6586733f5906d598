import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { createLocation } from '../../test/helpers/factories.js';

// Summer time in Berlin: the offset shown for Europe/Berlin is +02:00.
const clock = new FixedClock('2026-07-01T12:00:00Z');
let t: TestApp;
let otherLocationId: string;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  const other = await createOtherWorkspace(t.db);
  otherLocationId = (await createLocation(t.db, other.workspace.id, { name: 'Theirs' })).id;
});
afterAll(() => t.close());

const fullBody = {
  name: '  Downtown  ',
  timezone: 'Europe/Berlin',
  description: 'Our flagship studio',
  address: {
    address_1: 'Hauptstraße 1',
    address_2: '2nd floor',
    city: 'Berlin',
    postal_code: '10115',
    country_iso: 'de',
    position: { lat: 52.52, lng: 13.405 },
  },
  phone: '+49 30 1234567',
  opening_hours: { mon: [{ from: '09:00', to: '18:00' }], sat: [{ from: '10:00', to: '24:00' }] },
  images: ['https://example.com/a.jpg'],
  unknown_key: 'ignored',
};

async function create(body: Record<string, unknown> = { name: 'Branch', timezone: 'Europe/Berlin' }) {
  const response = await t.call('POST', '/locations', body);
  expect(response.statusCode).toBe(201);
  return response.json().data as { uuid: string; name: string };
}

/** A uuid of another workspace must answer exactly like one that exists nowhere. */
async function expectLikeUnknown(method: string, path: (uuid: string) => string, body?: unknown) {
  const foreign = await t.call(method, path(otherLocationId), body);
  const unknown = await t.call(method, path(randomUUID()), body);
  expect(foreign.statusCode).toBe(404);
  expect(unknown.statusCode).toBe(404);
  expect(foreign.json()).toEqual(unknown.json());
  expect(foreign.json().code).toBe('not_found');
}

describe('POST /locations', () => {
  it('creates a location and answers 201 with its full shape', async () => {
    const response = await t.call('POST', '/locations', fullBody);
    expect(response.statusCode).toBe(201);
    const data = response.json().data;
    expect(data).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Downtown',
      description: 'Our flagship studio',
      address: {
        address_1: 'Hauptstraße 1',
        address_2: '2nd floor',
        city: 'Berlin',
        postal_code: '10115',
        country_iso: 'DE',
        formatted: 'Hauptstraße 1, 2nd floor, 10115 Berlin, DE',
        position: { lat: 52.52, lng: 13.405 },
      },
      timezone: { name: 'Europe/Berlin', offset: '+02:00', short: expect.any(String) },
      phone: '+49 30 1234567',
      opening_hours: { days: fullBody.opening_hours },
      images: ['https://example.com/a.jpg'],
    });
    const read = await t.call('GET', `/locations/${data.uuid}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data });
  });

  it('fills defaults for a minimal body and stores the canonical zone name', async () => {
    const data = await create({ name: 'Minimal', timezone: 'america/new_york' });
    expect(data).toMatchObject({
      name: 'Minimal',
      description: '',
      address: { address_1: '', city: '', country_iso: '', formatted: '', position: null },
      timezone: { name: 'America/New_York', offset: '-04:00' },
      phone: '',
      opening_hours: { days: {} },
      images: [],
    });
  });

  it('accepts a form-encoded body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/public/v2/locations',
      headers: { ...t.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Form+branch&timezone=Asia%2FKolkata',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data).toMatchObject({
      name: 'Form branch',
      timezone: { name: 'Asia/Kolkata', offset: '+05:30' },
    });
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['missing name and timezone', {}, ['name', 'timezone']],
    ['an unknown time zone', { name: 'X', timezone: 'Mars/Olympus' }, ['timezone']],
    ['a bare offset as time zone', { name: 'X', timezone: '+02:00' }, ['timezone']],
    ['a blank name', { name: '   ', timezone: 'UTC' }, ['name']],
    [
      'a three-letter country',
      { name: 'X', timezone: 'UTC', address: { country_iso: 'DEU' } },
      ['address.country_iso'],
    ],
    [
      'a latitude out of range',
      { name: 'X', timezone: 'UTC', address: { position: { lat: 91, lng: 0 } } },
      ['address.position.lat'],
    ],
    [
      'a malformed opening time',
      { name: 'X', timezone: 'UTC', opening_hours: { tue: [{ from: '9:00', to: '25:00' }] } },
      ['opening_hours.tue.0.from', 'opening_hours.tue.0.to'],
    ],
    [
      'an interval ending before it starts',
      { name: 'X', timezone: 'UTC', opening_hours: { wed: [{ from: '12:00', to: '10:00' }] } },
      ['opening_hours.wed.0.to'],
    ],
    ['an image that is not a url', { name: 'X', timezone: 'UTC', images: ['not a url'] }, ['images.0']],
    ['a non-string name', { name: { a: 1 }, timezone: 'UTC' }, ['name']],
  ];
  for (const [what, body, fields] of invalid) {
    it(`answers 422 naming the field for ${what}`, async () => {
      const before = await t.db
        .selectFrom('locations')
        .select(t.db.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const response = await t.call('POST', '/locations', body);
      expect(response.statusCode).toBe(422);
      const json = response.json();
      expect(json).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
      expect(Object.keys(json.errors).sort()).toEqual([...fields].sort());
      const after = await t.db
        .selectFrom('locations')
        .select(t.db.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });
  }
});

describe('PATCH /locations/{uuid}', () => {
  it('changes only the fields given, merging the address', async () => {
    const created = await create(fullBody);
    const response = await t.call('PATCH', `/locations/${created.uuid}`, {
      name: 'Renamed',
      address: { city: 'Potsdam', position: null },
      opening_hours: { sun: [{ from: '11:00', to: '15:00' }] },
    });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.name).toBe('Renamed');
    expect(data.address).toEqual({
      address_1: 'Hauptstraße 1',
      address_2: '2nd floor',
      city: 'Potsdam',
      postal_code: '10115',
      country_iso: 'DE',
      formatted: 'Hauptstraße 1, 2nd floor, 10115 Potsdam, DE',
      position: null,
    });
    expect(data.opening_hours).toEqual({ days: { sun: [{ from: '11:00', to: '15:00' }] } });
    expect(data.description).toBe(fullBody.description);
    expect(data.timezone.name).toBe('Europe/Berlin');
    expect((await t.call('GET', `/locations/${created.uuid}`)).json().data).toEqual(data);
  });

  it('answers 422 for an invalid time zone and leaves the location as it was', async () => {
    const created = await create();
    const response = await t.call('PATCH', `/locations/${created.uuid}`, {
      name: 'New',
      timezone: 'Nowhere/City',
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['timezone']);
    expect((await t.call('GET', `/locations/${created.uuid}`)).json().data.name).toBe('Branch');
  });

  it("answers 404 for another workspace's location exactly like for an unknown one", async () => {
    await expectLikeUnknown('PATCH', (uuid) => `/locations/${uuid}`, { name: 'Hijacked' });
    const theirs = await t.db
      .selectFrom('locations')
      .select('name')
      .where('id', '=', otherLocationId)
      .executeTakeFirstOrThrow();
    expect(theirs.name).toBe('Theirs');
  });
});

describe('DELETE /locations/{uuid}', () => {
  it('archives: 204, then gone from GET and the list, but the row is kept', async () => {
    const created = await create({ name: 'Short-lived', timezone: 'UTC' });
    const response = await t.call('DELETE', `/locations/${created.uuid}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    const read = await t.call('GET', `/locations/${created.uuid}`);
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual((await t.call('GET', `/locations/${randomUUID()}`)).json());
    const list = await t.call('GET', '/locations?per_page=100');
    expect(list.json().data.map((l: { uuid: string }) => l.uuid)).not.toContain(created.uuid);
    expect((await t.call('PATCH', `/locations/${created.uuid}`, { name: 'Back' })).statusCode).toBe(404);
    expect((await t.call('DELETE', `/locations/${created.uuid}`)).statusCode).toBe(404);

    const row = await t.db
      .selectFrom('locations')
      .select(['name', 'archived_at'])
      .where('id', '=', created.uuid)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Short-lived');
    expect(row.archived_at).toBeInstanceOf(Date);
  });

  it("answers 404 for another workspace's location exactly like for an unknown one", async () => {
    await expectLikeUnknown('DELETE', (uuid) => `/locations/${uuid}`);
    const theirs = await t.db
      .selectFrom('locations')
      .select('archived_at')
      .where('id', '=', otherLocationId)
      .executeTakeFirstOrThrow();
    expect(theirs.archived_at).toBeNull();
  });
});

describe('GET /locations', () => {
  it("answers 404 for another workspace's location exactly like for an unknown one", async () => {
    await expectLikeUnknown('GET', (uuid) => `/locations/${uuid}`);
  });

  it('paginates in creation order with meta and links', async () => {
    const fresh = await buildTestApp({ database: t.database, clock });
    try {
      const names = ['L1', 'L2', 'L3', 'L4', 'L5'];
      for (const name of names) {
        expect((await fresh.call('POST', '/locations', { name, timezone: 'UTC' })).statusCode).toBe(201);
      }
      const page2 = await fresh.call('GET', '/locations?page=2&per_page=2');
      expect(page2.statusCode).toBe(200);
      const body = page2.json();
      expect(body.data.map((l: { name: string }) => l.name)).toEqual(['L3', 'L4']);
      expect(body.meta).toEqual({ current_page: 2, last_page: 3, per_page: 2, total: 5 });
      const query = (link: string | null) =>
        link === null ? null : new URL(link, 'http://localhost').search;
      expect(query(body.links.first)).toBe('?page=1&per_page=2');
      expect(query(body.links.last)).toBe('?page=3&per_page=2');
      expect(query(body.links.prev)).toBe('?page=1&per_page=2');
      expect(query(body.links.next)).toBe('?page=3&per_page=2');
      const last = (await fresh.call('GET', '/locations?page=3&per_page=2')).json();
      expect(last.data.map((l: { name: string }) => l.name)).toEqual(['L5']);
      expect(last.links.next).toBeNull();
    } finally {
      await fresh.close();
    }
  });

  it('lists each location as a full read gives it, and a change of it at once', async () => {
    const { listLocations, findLiveLocation } = await import('./locations.repository.js');
    const page = { page: 1, perPage: 50, offset: 0 };
    const listed = await listLocations(t.db, t.workspace.id, page);
    expect(listed.rows.length).toBeGreaterThan(0);
    for (const row of listed.rows) expect(row).toEqual(await findLiveLocation(t.db, t.workspace.id, row.id));
    const first = listed.rows[0]!;
    const patched = await t.call('PATCH', `/locations/${first.id}`, { description: 'Changed by the test' });
    expect(patched.statusCode, patched.body).toBe(200);
    const again = (await listLocations(t.db, t.workspace.id, page)).rows.find((row) => row.id === first.id)!;
    expect(again.description).toBe('Changed by the test');
    expect(again).toEqual(await findLiveLocation(t.db, t.workspace.id, first.id));
  });
});

describe('requests without a body', () => {
  it('a bare POST names the required fields; a bare PATCH changes nothing', async () => {
    const t2 = await buildTestApp();
    try {
      const created = await t2.app.inject({
        method: 'POST',
        url: '/api/public/v2/locations',
        headers: t2.headers,
      });
      expect(created.statusCode).toBe(422);
      expect(Object.keys(created.json().errors)).toEqual(expect.arrayContaining(['name', 'timezone']));
      const location = await t2.call('POST', '/locations', { name: 'Mitte', timezone: 'Europe/Berlin' });
      const uuid = location.json().data.uuid;
      const patched = await t2.app.inject({
        method: 'PATCH',
        url: `/api/public/v2/locations/${uuid}`,
        headers: t2.headers,
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json().data.name).toBe('Mitte');
    } finally {
      await t2.close();
    }
  });
});
