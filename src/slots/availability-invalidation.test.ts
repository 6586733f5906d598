import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BookingFixture, bookingFixture } from '../../test/helpers/booking-fixture.js';
import { buildTestApp, createOtherWorkspace, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { lockBooking } from '../bookings/bookings.repository.js';
import { executeCommand } from '../cli/commands.js';
import { createPaymentAccount } from '../payment-accounts/payment-accounts.service.js';
import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { openWritePath } from '../write-path.js';

/**
 * Every write path invalidates the cached slot answers of its workspace, and only
 * of its workspace. Each case first makes the cache provably stale — a seat written straight into
 * the store, behind every service, which a cached answer does not show — and then does one write
 * through the path under test: the next answer must show the seat.
 */

// Half a minute past: answers may be cached (an exact minute never is).
const clock = new FixedClock('2026-09-01T08:00:30Z');
let t: TestApp;
let f: BookingFixture;
let day = 9;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  f = await bookingFixture(t);
});
afterAll(() => t.close());

interface Studio {
  t: TestApp;
  workspaceId: string;
  f: BookingFixture;
  headers: Record<string, string>;
}

/** Free places at 09:00 Berlin on 2026-09-<date> for the haircut, as the API answers now. */
async function placesAtNine(studio: Studio, date: string): Promise<number> {
  const answer = await studio.t.app.inject({
    method: 'GET',
    url: `/api/public/v2/locations/${studio.f.location.id}/time-slots?service_uuid=${studio.f.haircut.id}&range_start=${date}&range_end=${date}`,
    headers: studio.headers,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const slots = answer.json().dates[0].slots as { start: string; quantity: number }[];
  return slots.find((slot) => slot.start === '09:00')?.quantity ?? 0;
}

/** Anna's seat at 09:00 Berlin, written into the store directly: no unit of work, no invalidation. */
async function seatBehindTheBack(studio: Studio, date: string): Promise<void> {
  await studio.t.db
    .insertInto('occupancies')
    .values({
      workspace_id: studio.workspaceId,
      staffer_id: studio.f.anna.id,
      location_id: studio.f.location.id,
      service_id: studio.f.haircut.id,
      service_start: new Date(`${date}T07:00:00Z`),
      span: `[${date}T07:00:00Z,${date}T08:00:00Z)`,
      capacity: 1,
      seats_taken: 1,
    })
    .execute();
}

/** A day of its own for each case, with a cached answer that the store no longer matches. */
async function staleDay(studio: Studio): Promise<string> {
  day += 1;
  const date = `2026-09-${String(day).padStart(2, '0')}`;
  expect(await placesAtNine(studio, date)).toBe(2);
  await seatBehindTheBack(studio, date);
  expect(await placesAtNine(studio, date), 'the repeat is served from the cache').toBe(2);
  return date;
}

const ours = (): Studio => ({ t, workspaceId: t.workspace.id, f, headers: t.headers });

describe('every write path invalidates cached slot answers', () => {
  it('a write through the API (one that does not touch slots at all)', async () => {
    const date = await staleDay(ours());
    const write = await t.call('POST', `/locations/${f.location.id}/accounts`, { name: 'Card' });
    expect(write.statusCode, write.body).toBe(201);
    expect(await placesAtNine(ours(), date)).toBe(1);
  });

  it('a keyed write through the API, and not its replay', async () => {
    const date = await staleDay(ours());
    const headers = { 'idempotency-key': 'invalidate-once' };
    const write = await t.call('POST', `/locations/${f.location.id}/accounts`, { name: 'Keyed' }, headers);
    expect(write.statusCode, write.body).toBe(201);
    expect(await placesAtNine(ours(), date)).toBe(1);
    const next = await staleDay(ours());
    const replay = await t.call('POST', `/locations/${f.location.id}/accounts`, { name: 'Keyed' }, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await placesAtNine(ours(), next), 'a replay writes nothing, so nothing is invalidated').toBe(2);
  });

  it('a plain service call, without HTTP, on a unit of work of its own (as the panel and widget will)', async () => {
    const date = await staleDay(ours());
    await createPaymentAccount(openWritePath(t.db).uow, t.workspace.id, f.location.id, { name: 'Till' });
    expect(await placesAtNine(ours(), date)).toBe(1);
  });

  it('a write through the CLI', async () => {
    const date = await staleDay(ours());
    const result = await executeCommand(
      t.database,
      { kind: 'key-create', workspace: t.workspace.slug, name: 'ops' },
      clock.now(),
    );
    expect(result).toMatchObject({ api_key: { name: 'ops' } });
    expect(await placesAtNine(ours(), date)).toBe(1);
  });

  it('not a write that failed: nothing committed, nothing to invalidate', async () => {
    const date = await staleDay(ours());
    const refused = await t.call('POST', `/locations/${f.location.id}/accounts`, { name: '' });
    expect(refused.statusCode).toBe(422);
    expect(await placesAtNine(ours(), date)).toBe(2);
  });
});

describe('invalidation is per workspace', () => {
  it('a write in workspace B leaves A’s cached answers served; a write in A does not', async () => {
    const other = await createOtherWorkspace(t.db);
    const theirs: Studio = {
      t,
      workspaceId: other.workspace.id,
      f: await bookingFixture({ ...t, workspace: other.workspace }),
      headers: other.headers,
    };
    const oursDate = await staleDay(ours());
    const theirDate = await staleDay(theirs);
    const write = await t.app.inject({
      method: 'PATCH',
      url: '/api/public/v2/workspace',
      headers: other.headers,
      payload: { name: 'Renamed B' },
    });
    expect(write.statusCode, write.body).toBe(200);
    expect(await placesAtNine(ours(), oursDate), 'A still served from its cache').toBe(2);
    expect(await placesAtNine(theirs, theirDate), 'B computed afresh').toBe(1);
  });
});

describe('Tx', () => {
  it('is a type a plain Db does not satisfy', async () => {
    const db: Db = t.db;
    const probe = (tx: Tx) => lockBooking(tx, t.workspace.id, '00000000-0000-4000-8000-000000000000');
    // @ts-expect-error a Db is not a Tx: functions that need a transaction cannot get the bare store
    const refused = () => probe(db);
    expect(typeof refused).toBe('function');
    await expect(openWritePath(t.db).uow.run(t.workspace.id, (tx) => probe(tx))).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
