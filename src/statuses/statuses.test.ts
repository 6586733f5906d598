import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';

let t: TestApp;
let other: Awaited<ReturnType<typeof createOtherWorkspace>>;

beforeAll(async () => {
  t = await buildTestApp();
  other = await createOtherWorkspace(t.db);
});
afterAll(() => t.close());

interface Status {
  uuid: string;
  name: string;
  type: string;
  color: string;
  is_default: boolean;
  is_final: boolean;
}

async function list(headers?: Record<string, string>): Promise<Status[]> {
  const response = headers
    ? await t.app.inject({ method: 'GET', url: `${API}/bookings/statuses`, headers })
    : await t.call('GET', '/bookings/statuses');
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

const byType = async (type: string) => (await list()).find((s) => s.type === type)!;

async function create(body: Record<string, unknown>): Promise<Status> {
  const response = await t.call('POST', '/bookings/statuses', body);
  expect(response.statusCode).toBe(201);
  return response.json().data;
}

async function defaultsInStore(workspaceId: string): Promise<string[]> {
  const rows = await t.db
    .selectFrom('booking_statuses')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('is_default', '=', true)
    .execute();
  return rows.map((row) => row.id);
}

describe('GET /bookings/statuses', () => {
  it('lists the four built-in statuses in order, New the default, the last two final', async () => {
    const response = await t.call('GET', '/bookings/statuses');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.map((s: Status) => [s.name, s.type, s.is_default, s.is_final])).toEqual([
      ['New', 'new', true, false],
      ['Confirmed', 'confirmed', false, false],
      ['Completed', 'completed', false, true],
      ['Canceled', 'canceled', false, true],
    ]);
    for (const status of body.data as Status[]) {
      expect(Object.keys(status)).toEqual(['uuid', 'name', 'type', 'color', 'is_default', 'is_final']);
      expect(status.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(status.uuid).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('POST /bookings/statuses', () => {
  it('creates a custom status, listed last', async () => {
    const response = await t.call('POST', '/bookings/statuses', {
      name: '  Waiting list ',
      color: '#FF9800',
    });
    expect(response.statusCode).toBe(201);
    const created = response.json().data;
    expect(created).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Waiting list',
      type: 'custom',
      color: '#ff9800',
      is_default: false,
      is_final: false,
    });
    const all = await list();
    expect(all[all.length - 1]).toEqual(created);
  });

  it('always makes the type custom and gives a colour when none is sent', async () => {
    const created = await create({ name: 'Arrived', type: 'completed' });
    expect(created.type).toBe('custom');
    expect(created.is_final).toBe(false);
    expect(created.color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('can create the new default at once, leaving exactly one default', async () => {
    const created = await create({ name: 'Requested', is_default: true });
    expect(created.is_default).toBe(true);
    expect((await list()).filter((s) => s.is_default).map((s) => s.uuid)).toEqual([created.uuid]);
    expect(await defaultsInStore(t.workspace.id)).toEqual([created.uuid]);
    // Put New back as the default for the tests that follow.
    await t.call('PATCH', `/bookings/statuses/${(await byType('new')).uuid}`, { is_default: true });
  });

  const refused: [string, unknown, string[]][] = [
    ['a missing name', { color: '#123456' }, ['name']],
    ['no body at all', undefined, ['name']],
    ['a blank name', { name: '   ' }, ['name']],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, ['name']],
    ['a colour name', { name: 'Late', color: 'red' }, ['color']],
    ['a short hex colour', { name: 'Late', color: '#fff' }, ['color']],
    ['a non-boolean is_default', { name: 'Late', is_default: 'maybe' }, ['is_default']],
    [
      'several bad fields at once',
      { name: '', color: 'blue', is_default: 'maybe' },
      ['color', 'is_default', 'name'],
    ],
  ];
  for (const [what, body, fields] of refused) {
    it(`refuses ${what} with 422 naming ${fields.join(', ')}`, async () => {
      const before = await list();
      const response = await t.call('POST', '/bookings/statuses', body);
      expect(response.statusCode).toBe(422);
      expect(response.json().code).toBe('validation_failed');
      expect(response.json().message).toBe('The given data was invalid.');
      expect(Object.keys(response.json().errors).sort()).toEqual(fields);
      expect(await list()).toEqual(before);
    });
  }
});

describe('PATCH /bookings/statuses/{uuid}', () => {
  it('renames and recolours a built-in status, its type unchanged', async () => {
    const confirmed = await byType('confirmed');
    const response = await t.call('PATCH', `/bookings/statuses/${confirmed.uuid}`, {
      name: 'Approved',
      color: '#00ff00',
      type: 'custom',
    });
    expect(response.statusCode).toBe(200);
    const expected = { ...confirmed, name: 'Approved', color: '#00ff00' };
    expect(response.json()).toEqual({ data: expected });
    expect(await byType('confirmed')).toEqual(expected);
  });

  it('moves the default: exactly one default remains', async () => {
    const previous = await byType('new');
    const confirmed = await byType('confirmed');
    const response = await t.call('PATCH', `/bookings/statuses/${confirmed.uuid}`, { is_default: true });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.is_default).toBe(true);
    const all = await list();
    expect(all.filter((s) => s.is_default).map((s) => s.uuid)).toEqual([confirmed.uuid]);
    expect(all.find((s) => s.uuid === previous.uuid)!.is_default).toBe(false);
    expect(await defaultsInStore(t.workspace.id)).toEqual([confirmed.uuid]);
    // Setting it again changes nothing.
    const again = await t.call('PATCH', `/bookings/statuses/${confirmed.uuid}`, { is_default: true });
    expect(again.statusCode).toBe(200);
    expect(await defaultsInStore(t.workspace.id)).toEqual([confirmed.uuid]);
    await t.call('PATCH', `/bookings/statuses/${previous.uuid}`, { is_default: true });
    expect(await defaultsInStore(t.workspace.id)).toEqual([previous.uuid]);
  });

  it('keeps one default when several requests move it at the same time', async () => {
    const customs = await Promise.all(['A', 'B', 'C', 'D'].map((name) => create({ name: `Race ${name}` })));
    const responses = await Promise.all(
      customs.map((s) => t.call('PATCH', `/bookings/statuses/${s.uuid}`, { is_default: true })),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const defaults = await defaultsInStore(t.workspace.id);
    expect(defaults).toHaveLength(1);
    expect(customs.map((s) => s.uuid)).toContain(defaults[0]);
    await t.call('PATCH', `/bookings/statuses/${(await byType('new')).uuid}`, { is_default: true });
    for (const s of customs) await t.call('DELETE', `/bookings/statuses/${s.uuid}`);
  });

  for (const type of ['completed', 'canceled']) {
    it(`refuses to make the final ${type} status the default (422 is_default)`, async () => {
      const final = await byType(type);
      const response = await t.call('PATCH', `/bookings/statuses/${final.uuid}`, { is_default: true });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['is_default']);
      expect((await byType('new')).is_default).toBe(true);
      expect(await byType(type)).toEqual(final);
    });
  }

  it('refuses to switch the default off without naming another (422 is_default)', async () => {
    const current = await byType('new');
    const response = await t.call('PATCH', `/bookings/statuses/${current.uuid}`, { is_default: false });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['is_default']);
    expect(await defaultsInStore(t.workspace.id)).toEqual([current.uuid]);
  });

  it('refuses a blank name and a bad colour, changing nothing', async () => {
    const custom = await create({ name: 'Checked in', color: '#101010' });
    const response = await t.call('PATCH', `/bookings/statuses/${custom.uuid}`, {
      name: ' ',
      color: '#12345g',
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(['color', 'name']);
    expect((await list()).find((s) => s.uuid === custom.uuid)).toEqual(custom);
  });
});

describe('status names', () => {
  it('refuses a name another live status has, in any letter case (422 name), changing nothing', async () => {
    const first = await create({ name: 'Waiting room' });
    const before = await list();
    const again = await t.call('POST', '/bookings/statuses', { name: ' waiting ROOM ' });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual({ name: ['A status named "waiting ROOM" already exists.'] });
    const confirmed = await byType('confirmed');
    const renamed = await t.call('PATCH', `/bookings/statuses/${confirmed.uuid}`, { name: 'WAITING room' });
    expect(renamed.statusCode).toBe(422);
    expect(Object.keys(renamed.json().errors)).toEqual(['name']);
    expect(await list()).toEqual(before);
    // A status may keep (or re-case) its own name.
    const recased = await t.call('PATCH', `/bookings/statuses/${first.uuid}`, { name: 'Waiting Room' });
    expect(recased.statusCode).toBe(200);
    expect(recased.json().data.name).toBe('Waiting Room');
  });

  it('creates one status when several requests send the same name at once', async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => t.call('POST', '/bookings/statuses', { name: 'Same time' })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    expect((await list()).filter((status) => status.name === 'Same time')).toHaveLength(1);
  });

  it('lets an archived status’s name be used again', async () => {
    const old = await create({ name: 'Walk-in' });
    expect((await t.call('DELETE', `/bookings/statuses/${old.uuid}`)).statusCode).toBe(204);
    const reborn = await create({ name: 'Walk-in' });
    expect(reborn.uuid).not.toBe(old.uuid);
  });

  it("does not compare names with another workspace's statuses", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `${API}/bookings/statuses`,
      headers: other.headers,
      payload: { name: 'Only here' },
    });
    expect(response.statusCode).toBe(201);
    expect((await create({ name: 'Only here' })).name).toBe('Only here');
  });
});

describe('DELETE /bookings/statuses/{uuid}', () => {
  it('archives a custom status: it vanishes from the list and answers 404 after', async () => {
    const custom = await create({ name: 'No show' });
    const response = await t.call('DELETE', `/bookings/statuses/${custom.uuid}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await list()).map((s) => s.uuid)).not.toContain(custom.uuid);
    expect((await t.call('PATCH', `/bookings/statuses/${custom.uuid}`, { name: 'Back' })).statusCode).toBe(
      404,
    );
    expect((await t.call('DELETE', `/bookings/statuses/${custom.uuid}`)).statusCode).toBe(404);
    // Archived, not deleted: bookings that carry it still point at a row.
    const row = await t.db
      .selectFrom('booking_statuses')
      .select('archived_at')
      .where('id', '=', custom.uuid)
      .executeTakeFirstOrThrow();
    expect(row.archived_at).toBeInstanceOf(Date);
  });

  for (const type of ['new', 'confirmed', 'completed', 'canceled']) {
    it(`refuses to archive the built-in ${type} status (409 status_built_in)`, async () => {
      const status = await byType(type);
      const response = await t.call('DELETE', `/bookings/statuses/${status.uuid}`);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ code: 'status_built_in' });
      expect(response.json().message).toMatch(/built-in/);
      expect(await byType(type)).toEqual(status);
    });
  }

  it('refuses to archive the default status (409 status_is_default)', async () => {
    const custom = await create({ name: 'Pending', is_default: true });
    const response = await t.call('DELETE', `/bookings/statuses/${custom.uuid}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('status_is_default');
    expect((await list()).find((s) => s.uuid === custom.uuid)?.is_default).toBe(true);
    await t.call('PATCH', `/bookings/statuses/${(await byType('new')).uuid}`, { is_default: true });
    expect((await t.call('DELETE', `/bookings/statuses/${custom.uuid}`)).statusCode).toBe(204);
  });
});

describe('isolation', () => {
  it("answers another workspace's status exactly like an unknown one, and leaves it alone", async () => {
    const theirs = (await list(other.headers)).find((s) => s.type === 'confirmed')!;
    const theirsBefore = await list(other.headers);
    const unknown = randomUUID();
    for (const [method, body] of [
      ['PATCH', { name: 'Mine now' }],
      ['PATCH', { is_default: true }],
      ['DELETE', undefined],
    ] as const) {
      const foreign = await t.call(method, `/bookings/statuses/${theirs.uuid}`, body);
      const missing = await t.call(method, `/bookings/statuses/${unknown}`, body);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
      expect(foreign.json().code).toBe('not_found');
    }
    expect(await list(other.headers)).toEqual(theirsBefore);
    expect(await defaultsInStore(other.workspace.id)).toHaveLength(1);
  });

  it("never lists another workspace's statuses", async () => {
    const theirs = await t.app.inject({
      method: 'POST',
      url: `${API}/bookings/statuses`,
      headers: other.headers,
      payload: { name: 'Their own' },
    });
    expect(theirs.statusCode).toBe(201);
    const mine = (await list()).map((s) => s.uuid);
    expect(mine).not.toContain(theirs.json().data.uuid);
  });

  it('answers 404 for a malformed uuid', async () => {
    expect((await t.call('PATCH', '/bookings/statuses/nope', { name: 'x' })).statusCode).toBe(404);
    expect((await t.call('DELETE', '/bookings/statuses/nope')).statusCode).toBe(404);
  });
});
