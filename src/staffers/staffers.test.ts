import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { createLocation, createService, createStaffer } from '../../test/helpers/factories.js';

let t: TestApp;
let locationA: string;
let locationB: string;
let archivedLocation: string;
let onlyAtA: string;
let atBoth: string;
let archivedService: string;
let otherLocation: string;
let otherService: string;
let otherStaffer: string;

beforeAll(async () => {
  t = await buildTestApp();
  const ws = t.workspace.id;
  locationA = (await createLocation(t.db, ws, { name: 'A' })).id;
  locationB = (await createLocation(t.db, ws, { name: 'B' })).id;
  archivedLocation = (await createLocation(t.db, ws, { name: 'Gone' })).id;
  onlyAtA = (await createService(t.db, ws, [locationA], { name: 'Only at A' })).id;
  atBoth = (await createService(t.db, ws, [locationA, locationB, archivedLocation], { name: 'Both' })).id;
  archivedService = (await createService(t.db, ws, [locationA], { name: 'Archived' })).id;
  await t.db
    .updateTable('locations')
    .set({ archived_at: new Date() })
    .where('id', '=', archivedLocation)
    .execute();
  await t.db
    .updateTable('services')
    .set({ archived_at: new Date() })
    .where('id', '=', archivedService)
    .execute();
  const other = await createOtherWorkspace(t.db);
  otherLocation = (await createLocation(t.db, other.workspace.id)).id;
  otherService = (await createService(t.db, other.workspace.id, [otherLocation])).id;
  otherStaffer = (
    await createStaffer(t.db, other.workspace.id, otherLocation, [otherService], { firstName: 'Theirs' })
  ).id;
});
afterAll(() => t.close());

interface StafferJson {
  uuid: string;
  first_name: string;
  services: { location_uuid: string; service_uuids: string[] }[];
}

async function create(body: Record<string, unknown>): Promise<StafferJson> {
  const response = await t.call('POST', '/staffers', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

async function stafferCount(): Promise<number> {
  const row = await t.db.selectFrom('staffers').select(t.db.fn.countAll().as('n')).executeTakeFirstOrThrow();
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

describe('POST /staffers and GET /staffers/{uuid}', () => {
  it('creates a staffer with assignments: 201 with the full shape', async () => {
    const response = await t.call('POST', '/staffers', {
      first_name: ' Ada ',
      last_name: 'Lovelace',
      position: 'Senior stylist',
      description: 'Loves colour',
      avatar: 'https://example.com/ada.png',
      services: [
        { location_uuid: locationA, service_uuids: [onlyAtA, atBoth] },
        { location_uuid: locationB, service_uuids: [atBoth] },
      ],
      unknown: 1,
    });
    expect(response.statusCode).toBe(201);
    const data = response.json().data;
    expect(data).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      first_name: 'Ada',
      last_name: 'Lovelace',
      position: 'Senior stylist',
      description: 'Loves colour',
      avatar: 'https://example.com/ada.png',
      services: [
        { location_uuid: locationA, service_uuids: [onlyAtA, atBoth] },
        { location_uuid: locationB, service_uuids: [atBoth] },
      ],
    });
    const read = await t.call('GET', `/staffers/${data.uuid}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ data });
  });

  it('fills defaults for a minimal body', async () => {
    const data = await create({ first_name: 'Min' });
    expect(data).toMatchObject({
      first_name: 'Min',
      last_name: '',
      position: '',
      description: '',
      avatar: null,
      services: [],
    });
  });

  const invalid: [string, () => Record<string, unknown>, string[]][] = [
    ['a missing first name', () => ({ last_name: 'X' }), ['first_name']],
    ['a blank first name', () => ({ first_name: '   ' }), ['first_name']],
    ['an avatar that is not a url', () => ({ first_name: 'X', avatar: 'me.png' }), ['avatar']],
    [
      'a malformed location or service uuid',
      () => ({ first_name: 'X', services: [{ location_uuid: 'x', service_uuids: ['y'] }] }),
      ['services.0.location_uuid', 'services.0.service_uuids.0'],
    ],
    [
      'an assignment without its service list',
      () => ({ first_name: 'X', services: [{ location_uuid: locationA }] }),
      ['services.0.service_uuids'],
    ],
    [
      'an unknown, archived or foreign location',
      () => ({
        first_name: 'X',
        services: [
          { location_uuid: locationA, service_uuids: [onlyAtA] },
          { location_uuid: randomUUID(), service_uuids: [atBoth] },
          { location_uuid: archivedLocation, service_uuids: [atBoth] },
          { location_uuid: otherLocation, service_uuids: [otherService] },
        ],
      }),
      ['services.1.location_uuid', 'services.2.location_uuid', 'services.3.location_uuid'],
    ],
    [
      'a service not offered there, archived, unknown or foreign',
      () => ({
        first_name: 'X',
        services: [
          { location_uuid: locationA, service_uuids: [atBoth, archivedService] },
          { location_uuid: locationB, service_uuids: [onlyAtA, randomUUID(), otherService] },
        ],
      }),
      [
        'services.0.service_uuids.1',
        'services.1.service_uuids.0',
        'services.1.service_uuids.1',
        'services.1.service_uuids.2',
      ],
    ],
  ];
  for (const [what, body, fields] of invalid) {
    it(`answers 422 naming the field for ${what}, writing nothing`, async () => {
      const before = await stafferCount();
      const response = await t.call('POST', '/staffers', body());
      expect(response.statusCode).toBe(422);
      const json = response.json();
      expect(json).toMatchObject({ message: 'The given data was invalid.', code: 'validation_failed' });
      expect(Object.keys(json.errors).sort()).toEqual([...fields].sort());
      expect(await stafferCount()).toBe(before);
    });
  }

  it("answers 404 for another workspace's staffer exactly like for an unknown one", async () => {
    await expectLikeUnknown('GET', (uuid) => `/staffers/${uuid}`, otherStaffer);
  });
});

describe('PATCH /staffers/{uuid}', () => {
  it('changes only the fields given; services replaces the whole assignment', async () => {
    const created = await create({
      first_name: 'Bo',
      last_name: 'Keep',
      services: [{ location_uuid: locationA, service_uuids: [onlyAtA] }],
    });
    const renamed = await t.call('PATCH', `/staffers/${created.uuid}`, { first_name: 'Bob', avatar: null });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({
      first_name: 'Bob',
      last_name: 'Keep',
      services: [{ location_uuid: locationA, service_uuids: [onlyAtA] }],
    });
    const moved = await t.call('PATCH', `/staffers/${created.uuid}`, {
      services: [{ location_uuid: locationB, service_uuids: [atBoth] }],
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data.services).toEqual([{ location_uuid: locationB, service_uuids: [atBoth] }]);
    expect((await t.call('GET', `/staffers/${created.uuid}`)).json().data).toEqual(moved.json().data);
    const cleared = await t.call('PATCH', `/staffers/${created.uuid}`, { services: [] });
    expect(cleared.json().data.services).toEqual([]);
  });

  it('answers 422 for a service not offered at the location and changes nothing', async () => {
    const created = await create({
      first_name: 'Cy',
      services: [{ location_uuid: locationA, service_uuids: [onlyAtA] }],
    });
    const response = await t.call('PATCH', `/staffers/${created.uuid}`, {
      first_name: 'Changed',
      services: [{ location_uuid: locationB, service_uuids: [onlyAtA] }],
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['services.0.service_uuids.0']);
    expect((await t.call('GET', `/staffers/${created.uuid}`)).json().data).toMatchObject({
      first_name: 'Cy',
      services: [{ location_uuid: locationA, service_uuids: [onlyAtA] }],
    });
  });

  it("answers 404 for another workspace's staffer exactly like for an unknown one", async () => {
    await expectLikeUnknown('PATCH', (uuid) => `/staffers/${uuid}`, otherStaffer, { first_name: 'Hijacked' });
    const theirs = await t.db
      .selectFrom('staffers')
      .select('first_name')
      .where('id', '=', otherStaffer)
      .executeTakeFirstOrThrow();
    expect(theirs.first_name).toBe('Theirs');
  });
});

describe('DELETE /staffers/{uuid}', () => {
  it('archives: 204, then gone from GET and the location list, but the row is kept', async () => {
    const created = await create({
      first_name: 'Leaving',
      services: [{ location_uuid: locationA, service_uuids: [onlyAtA] }],
    });
    const response = await t.call('DELETE', `/staffers/${created.uuid}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const read = await t.call('GET', `/staffers/${created.uuid}`);
    expect(read.statusCode).toBe(404);
    expect(read.json()).toEqual((await t.call('GET', `/staffers/${randomUUID()}`)).json());
    const list = (await t.call('GET', `/locations/${locationA}/staffers?per_page=100`)).json();
    expect(list.data.map((s: StafferJson) => s.uuid)).not.toContain(created.uuid);
    expect((await t.call('PATCH', `/staffers/${created.uuid}`, { first_name: 'Back' })).statusCode).toBe(404);
    expect((await t.call('DELETE', `/staffers/${created.uuid}`)).statusCode).toBe(404);
    const row = await t.db
      .selectFrom('staffers')
      .select(['first_name', 'archived_at'])
      .where('id', '=', created.uuid)
      .executeTakeFirstOrThrow();
    expect(row.first_name).toBe('Leaving');
    expect(row.archived_at).toBeInstanceOf(Date);
  });

  it("answers 404 for another workspace's staffer exactly like for an unknown one", async () => {
    await expectLikeUnknown('DELETE', (uuid) => `/staffers/${uuid}`, otherStaffer);
    const theirs = await t.db
      .selectFrom('staffers')
      .select('archived_at')
      .where('id', '=', otherStaffer)
      .executeTakeFirstOrThrow();
    expect(theirs.archived_at).toBeNull();
  });
});

describe('GET /locations/{uuid}/staffers', () => {
  it('lists live staffers providing a live service there, paginated in creation order', async () => {
    const fresh = await buildTestApp({ database: t.database });
    try {
      const ws = fresh.workspace.id;
      const here = (await createLocation(fresh.db, ws, { name: 'Here' })).id;
      const elsewhere = (await createLocation(fresh.db, ws, { name: 'Elsewhere' })).id;
      const service = (await createService(fresh.db, ws, [here, elsewhere])).id;
      const retired = (await createService(fresh.db, ws, [here], { name: 'Retired' })).id;
      for (const firstName of ['P1', 'P2', 'P3']) {
        await createStaffer(fresh.db, ws, here, [service], { firstName, lastName: 'Here' });
      }
      await createStaffer(fresh.db, ws, elsewhere, [service], { firstName: 'Elsewhere only' });
      await createStaffer(fresh.db, ws, here, [retired], { firstName: 'Retired service only' });
      await createStaffer(fresh.db, ws, here, [], { firstName: 'Nothing assigned' });
      const gone = await createStaffer(fresh.db, ws, here, [service], { firstName: 'Archived' });
      await fresh.db
        .updateTable('services')
        .set({ archived_at: new Date() })
        .where('id', '=', retired)
        .execute();
      await fresh.db
        .updateTable('staffers')
        .set({ archived_at: new Date() })
        .where('id', '=', gone.id)
        .execute();

      const page1 = await fresh.call('GET', `/locations/${here}/staffers?per_page=2`);
      expect(page1.statusCode).toBe(200);
      const body = page1.json();
      expect(body.data.map((s: StafferJson) => s.first_name)).toEqual(['P1', 'P2']);
      expect(body.data[0]).toEqual({
        uuid: expect.any(String),
        first_name: 'P1',
        last_name: 'Here',
        position: '',
        description: '',
        avatar: null,
        services: [{ location_uuid: here, service_uuids: [service] }],
      });
      expect(body.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 3 });
      expect(new URL(body.links.last, 'http://localhost').search).toBe('?per_page=2&page=2');
      expect(body.links.prev).toBeNull();
      const page2 = (await fresh.call('GET', `/locations/${here}/staffers?per_page=2&page=2`)).json();
      expect(page2.data.map((s: StafferJson) => s.first_name)).toEqual(['P3']);
      expect(page2.links.next).toBeNull();
      const beyond = (await fresh.call('GET', `/locations/${here}/staffers?per_page=2&page=9`)).json();
      expect(beyond.data).toEqual([]);
      expect(beyond.meta.total).toBe(3);
    } finally {
      await fresh.close();
    }
  });

  it('counts anew after every write: a staffer added, archived or given other services', async () => {
    const fresh = await buildTestApp({ database: t.database });
    try {
      const ws = fresh.workspace.id;
      const here = (await createLocation(fresh.db, ws, { name: 'Here' })).id;
      const service = (await createService(fresh.db, ws, [here])).id;
      const total = async () =>
        (await fresh.call('GET', `/locations/${here}/staffers?per_page=1&page=2`)).json().meta.total;
      await createStaffer(fresh.db, ws, here, [service], { firstName: 'One' });
      expect(await total()).toBe(1);
      // Through the API now: the next page's count must see it.
      const added = await fresh.call('POST', '/staffers', {
        first_name: 'Two',
        services: [{ location_uuid: here, service_uuids: [service] }],
      });
      expect(added.statusCode, added.body).toBe(201);
      expect(await total()).toBe(2);
      const moved = await fresh.call('PATCH', `/staffers/${added.json().data.uuid}`, { services: [] });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await total()).toBe(1);
      expect((await fresh.call('DELETE', `/staffers/${added.json().data.uuid}`)).statusCode).toBe(204);
      expect(await total()).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it("answers 404 for another workspace's or an archived location exactly like for an unknown one", async () => {
    await expectLikeUnknown('GET', (uuid) => `/locations/${uuid}/staffers`, otherLocation);
    const archived = await t.call('GET', `/locations/${archivedLocation}/staffers`);
    expect(archived.statusCode).toBe(404);
    expect(archived.json()).toEqual((await t.call('GET', `/locations/${randomUUID()}/staffers`)).json());
  });
});
