import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { createLocation, createStaffer } from '../../test/helpers/factories.js';

let t: TestApp;
let locationA: string;
let locationB: string;
let staffer: string;
let other: { staffer: string; location: string };

beforeAll(async () => {
  t = await buildTestApp();
  locationA = (await createLocation(t.db, t.workspace.id, { name: 'A' })).id;
  locationB = (await createLocation(t.db, t.workspace.id, { name: 'B' })).id;
  // The factory stores a 9-17 schedule at A; B has no row.
  staffer = (await createStaffer(t.db, t.workspace.id, locationA, [])).id;
  const otherWorkspace = await createOtherWorkspace(t.db);
  const otherLocation = (await createLocation(t.db, otherWorkspace.workspace.id)).id;
  other = {
    location: otherLocation,
    staffer: (await createStaffer(t.db, otherWorkspace.workspace.id, otherLocation, [])).id,
  };
});
afterAll(() => t.close());

const path = (stafferId: string, locationId?: string) =>
  `/staffers/${stafferId}/schedules${locationId ? `/${locationId}` : ''}`;

const FULL_SCHEDULE = {
  weekly: {
    mon: [
      { from: '09:00', to: '13:00' },
      { from: '14:00', to: '18:00' },
    ],
    tue: [],
    fri: [{ from: '22:00', to: '02:00' }],
    sun: [{ from: '00:00', to: '24:00' }],
  },
  breaks: { mon: [{ from: '10:30', to: '10:45' }], fri: [{ from: '23:30', to: '00:15' }] },
  overrides: [
    { date: '2026-12-24', intervals: [] },
    {
      date: '2026-12-31',
      intervals: [{ from: '10:00', to: '14:00' }],
      breaks: [{ from: '12:00', to: '12:30' }],
    },
  ],
};

async function newStaffer(): Promise<string> {
  const row = await t.db
    .insertInto('staffers')
    .values({ workspace_id: t.workspace.id, first_name: 'Sam', avatar: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('PUT then GET /staffers/{uuid}/schedules/{location}', () => {
  it('stores the schedule and reads it back exactly', async () => {
    const id = await newStaffer();
    const put = await t.call('PUT', path(id, locationB), FULL_SCHEDULE);
    expect(put.statusCode).toBe(200);
    const expected = { location_uuid: locationB, ...FULL_SCHEDULE };
    expect(put.json()).toEqual({ data: expected });

    const get = await t.call('GET', path(id, locationB));
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual({ data: expected });
    // Key order too: mon..sun and {from, to}, whatever order jsonb keeps them in.
    expect(JSON.stringify(get.json().data.weekly)).toBe(JSON.stringify(FULL_SCHEDULE.weekly));
    expect(JSON.stringify(get.json().data.overrides)).toBe(JSON.stringify(FULL_SCHEDULE.overrides));
  });

  it('stores the JSON the slot engine reads (schema types WeeklyJson / OverrideJson)', async () => {
    const id = await newStaffer();
    await t.call('PUT', path(id, locationA), FULL_SCHEDULE);
    const row = await t.db
      .selectFrom('schedules')
      .select(['weekly', 'breaks', 'overrides'])
      .where('workspace_id', '=', t.workspace.id)
      .where('staffer_id', '=', id)
      .where('location_id', '=', locationA)
      .executeTakeFirstOrThrow();
    expect(row).toEqual(FULL_SCHEDULE);
  });

  it('replaces the whole schedule: omitted breaks and overrides become empty', async () => {
    const id = await newStaffer();
    await t.call('PUT', path(id, locationA), FULL_SCHEDULE);
    const weekly = { wed: [{ from: '08:00', to: '12:00' }] };
    const put = await t.call('PUT', path(id, locationA), { weekly });
    expect(put.statusCode).toBe(200);
    const get = await t.call('GET', path(id, locationA));
    expect(get.json()).toEqual({ data: { location_uuid: locationA, weekly, breaks: {}, overrides: [] } });
    const rows = await t.db
      .selectFrom('schedules')
      .select('location_id')
      .where('workspace_id', '=', t.workspace.id)
      .where('staffer_id', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('drops unknown keys inside ranges', async () => {
    const id = await newStaffer();
    const put = await t.call('PUT', path(id, locationA), {
      weekly: { thu: [{ from: '09:00', to: '10:00', label: 'morning' }] },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().data.weekly).toEqual({ thu: [{ from: '09:00', to: '10:00' }] });
  });

  it('reads a staffer-location pair without a row as an empty schedule', async () => {
    const get = await t.call('GET', path(staffer, locationB));
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual({ data: { location_uuid: locationB, weekly: {}, breaks: {}, overrides: [] } });
  });
});

describe('GET /staffers/{uuid}/schedules', () => {
  it('lists the schedule at every live location with a row', async () => {
    const id = await newStaffer();
    const weekly = { sat: [{ from: '10:00', to: '16:00' }] };
    await t.call('PUT', path(id, locationB), FULL_SCHEDULE);
    await t.call('PUT', path(id, locationA), { weekly });
    const get = await t.call('GET', path(id));
    expect(get.statusCode).toBe(200);
    // Locations in the order they are listed (created first, first).
    expect(get.json()).toEqual({
      data: [
        { location_uuid: locationA, weekly, breaks: {}, overrides: [] },
        { location_uuid: locationB, ...FULL_SCHEDULE },
      ],
    });
  });

  it('answers an empty list for a staffer without schedules', async () => {
    const get = await t.call('GET', path(await newStaffer()));
    expect(get.json()).toEqual({ data: [] });
  });

  it('leaves out archived locations', async () => {
    const id = await newStaffer();
    const closing = (await createLocation(t.db, t.workspace.id, { name: 'Closing' })).id;
    await t.call('PUT', path(id, closing), { weekly: {} });
    expect((await t.call('GET', path(id))).json().data).toHaveLength(1);
    await t.db.updateTable('locations').set({ archived_at: new Date() }).where('id', '=', closing).execute();
    expect((await t.call('GET', path(id))).json()).toEqual({ data: [] });
  });
});

describe('PUT validation', () => {
  it('names an overlapping interval (weekly.mon.1)', async () => {
    const response = await t.call('PUT', path(staffer, locationB), {
      weekly: {
        mon: [
          { from: '09:00', to: '13:00' },
          { from: '12:00', to: '18:00' },
        ],
      },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'The given data was invalid.',
      code: 'validation_failed',
      errors: { 'weekly.mon.1': ['The interval overlaps weekly.mon.0.'] },
    });
  });

  const cases: [string, unknown, string][] = [
    ['a missing weekly', { breaks: {} }, 'weekly'],
    ['a bad from time', { weekly: { tue: [{ from: '24:00', to: '10:00' }] } }, 'weekly.tue.0.from'],
    ['a bad to time', { weekly: { tue: [{ from: '09:00', to: '24:30' }] } }, 'weekly.tue.0.to'],
    ['from equal to to', { weekly: { tue: [{ from: '09:00', to: '09:00' }] } }, 'weekly.tue.0.to'],
    ['an unknown weekday', { weekly: { tuesday: [] } }, 'weekly.tuesday'],
    [
      'a break outside working hours',
      {
        weekly: { wed: [{ from: '09:00', to: '12:00' }] },
        breaks: { wed: [{ from: '12:00', to: '12:30' }] },
      },
      'breaks.wed.0',
    ],
    [
      'an impossible override date',
      { weekly: {}, overrides: [{ date: '2026-02-30', intervals: [] }] },
      'overrides.0.date',
    ],
    [
      'a duplicate override date',
      {
        weekly: {},
        overrides: [
          { date: '2026-12-24', intervals: [] },
          { date: '2026-12-24', intervals: [] },
        ],
      },
      'overrides.1.date',
    ],
    [
      'a break on a day off',
      {
        weekly: {},
        overrides: [{ date: '2026-12-24', intervals: [], breaks: [{ from: '10:00', to: '11:00' }] }],
      },
      'overrides.0.breaks.0',
    ],
    ['a weekday that is not a list', { weekly: { mon: 'closed' } }, 'weekly.mon'],
  ];
  for (const [name, body, field] of cases) {
    it(`refuses ${name} naming ${field}`, async () => {
      const response = await t.call('PUT', path(staffer, locationB), body);
      expect(response.statusCode).toBe(422);
      expect(response.json().code).toBe('validation_failed');
      expect(Object.keys(response.json().errors)).toEqual([field]);
    });
  }

  it('names the schema and the rule errors together', async () => {
    const response = await t.call('PUT', path(staffer, locationB), {
      weekly: {
        mon: [
          { from: '09:00', to: '13:00' },
          { from: '10:00', to: '11:00' },
        ],
      },
      overrides: [{ date: 'soon', intervals: 'none' }],
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual([
      'overrides.0.date',
      'overrides.0.intervals',
      'weekly.mon.1',
    ]);
  });

  it('writes nothing when refused', async () => {
    const before = await t.call('GET', path(staffer, locationA));
    await t.call('PUT', path(staffer, locationA), { weekly: { mon: [{ from: 'x', to: 'y' }] } });
    expect((await t.call('GET', path(staffer, locationA))).json()).toEqual(before.json());
    expect(before.json().data.weekly.mon).toEqual([{ from: '09:00', to: '17:00' }]);
  });
});

describe('isolation and liveness', () => {
  const unknown = randomUUID();

  async function expectSame404(method: string, url: string, body?: unknown) {
    const response = await t.call(method, url, body);
    expect(response.statusCode).toBe(404);
    return response.json();
  }

  it("answers another workspace's staffer exactly like an unknown one", async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { weekly: {} }],
    ] as const) {
      const foreign = await expectSame404(method, path(other.staffer, locationA), body);
      const missing = await expectSame404(method, path(unknown, locationA), body);
      expect(foreign).toEqual(missing);
      expect(foreign.code).toBe('not_found');
    }
    expect(await expectSame404('GET', path(other.staffer))).toEqual(
      await expectSame404('GET', path(unknown)),
    );
  });

  it("answers another workspace's location exactly like an unknown one", async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { weekly: {} }],
    ] as const) {
      const foreign = await expectSame404(method, path(staffer, other.location), body);
      const missing = await expectSame404(method, path(staffer, unknown), body);
      expect(foreign).toEqual(missing);
    }
  });

  it("never writes a row for another workspace's staffer or location", async () => {
    await t.call('PUT', path(other.staffer, other.location), { weekly: { mon: [] } });
    const rows = await t.db
      .selectFrom('schedules')
      .select('weekly')
      .where('staffer_id', '=', other.staffer)
      .execute();
    // Only the factory's row of the other workspace, untouched.
    expect(rows).toHaveLength(1);
    expect(rows[0]!.weekly.mon).toEqual([{ from: '09:00', to: '17:00' }]);
  });

  it('answers 404 for archived staffers and locations', async () => {
    const gone = await newStaffer();
    await t.db.updateTable('staffers').set({ archived_at: new Date() }).where('id', '=', gone).execute();
    await expectSame404('GET', path(gone));
    await expectSame404('GET', path(gone, locationA));
    await expectSame404('PUT', path(gone, locationA), { weekly: {} });
    const closed = (await createLocation(t.db, t.workspace.id, { name: 'Closed' })).id;
    await t.db.updateTable('locations').set({ archived_at: new Date() }).where('id', '=', closed).execute();
    await expectSame404('GET', path(staffer, closed));
    await expectSame404('PUT', path(staffer, closed), { weekly: {} });
  });

  it('answers 404 for a malformed uuid', async () => {
    await expectSame404('GET', path('not-a-uuid'));
    await expectSame404('PUT', path(staffer, 'not-a-uuid'), { weekly: {} });
  });
});
