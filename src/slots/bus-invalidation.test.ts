import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BookingFixture, bookingFixture } from '../../test/helpers/booking-fixture.js';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { openTestDatabase } from '../../test/helpers/test-db.js';
import { CACHE_BACKSTOP_TTL_MS, type Invalidation, MemoryBus } from '../platform/bus/invalidation-bus.js';
import type { Database } from '../platform/db/client.js';

/**
 * Cache invalidation over a bus, in one process: two apps on one store stand for two processes,
 * each checking its cached slot answers against versions pushed by a bus instead of reading them
 * from the store.
 * A seat written straight into the store (no unit of work) makes a cached answer provably stale;
 * then a write on the other app must reach this one's cache through the bus, or at worst expire
 * with the backstop TTL. (test/scale/cross-process-freshness.test.ts runs real processes over
 * LISTEN/NOTIFY and Redis.)
 */

/** A bus whose "anything may have changed" message (sent after a reconnect) a test can send. */
class ReconnectingBus extends MemoryBus {
  private readonly own: ((message: Invalidation) => void)[] = [];
  override subscribe(listener: (message: Invalidation) => void): () => void {
    this.own.push(listener);
    return super.subscribe(listener);
  }
  reconnected(): void {
    for (const listener of this.own) listener(undefined);
  }
}

// Half a minute past: answers may be cached for the rest of the minute.
const clock = new FixedClock('2026-09-01T08:00:20Z');
let database: Database;
const shared = new ReconnectingBus();
let a: TestApp;
let b: TestApp;
/** On its own bus: it never hears the others, nor they it. */
let deaf: TestApp;
let f: BookingFixture;
let day = 9;

beforeAll(async () => {
  database = await openTestDatabase();
  a = await buildTestApp({ clock, database, bus: shared });
  b = await buildTestApp({ clock, database, bus: shared, slug: `${a.workspace.slug}-b` });
  deaf = await buildTestApp({ clock, database, bus: new MemoryBus(), slug: `${a.workspace.slug}-deaf` });
  f = await bookingFixture(a);
});
afterAll(async () => {
  await deaf?.app.close();
  await b?.app.close();
  await a?.close();
});

async function placesAtNine(app: TestApp, date: string): Promise<number> {
  const answer = await app.app.inject({
    method: 'GET',
    url: `/api/public/v2/locations/${f.location.id}/time-slots?service_uuid=${f.haircut.id}&range_start=${date}&range_end=${date}`,
    headers: a.headers,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  const slots = answer.json().dates[0].slots as { start: string; quantity: number }[];
  return slots.find((slot) => slot.start === '09:00')?.quantity ?? 0;
}

/** A new day whose answer `app` has cached, with a seat the store has and the cache does not. */
async function staleDay(app: TestApp): Promise<string> {
  day += 1;
  const date = `2026-09-${String(day).padStart(2, '0')}`;
  expect(await placesAtNine(app, date)).toBe(2);
  await a.db
    .insertInto('occupancies')
    .values({
      workspace_id: a.workspace.id,
      staffer_id: f.anna.id,
      location_id: f.location.id,
      service_id: f.haircut.id,
      service_start: new Date(`${date}T07:00:00Z`),
      span: `[${date}T07:00:00Z,${date}T08:00:00Z)`,
      capacity: 1,
      seats_taken: 1,
    })
    .execute();
  expect(await placesAtNine(app, date), 'the repeat is served from the cache').toBe(2);
  return date;
}

async function renameThrough(app: TestApp, name: string): Promise<void> {
  const write = await app.app.inject({
    method: 'PATCH',
    url: '/api/public/v2/workspace',
    headers: a.headers,
    payload: { name },
  });
  expect(write.statusCode, write.body).toBe(200);
}

describe('slot caches invalidated over a bus', () => {
  it('a write on one process reaches the other’s cache through the bus', async () => {
    const date = await staleDay(a);
    await renameThrough(b, 'Renamed on B');
    expect(await placesAtNine(a, date), 'A computed afresh').toBe(1);
  });

  it('a write in another workspace leaves the cached answers served', async () => {
    const date = await staleDay(a);
    const other = await b.app.inject({
      method: 'PATCH',
      url: '/api/public/v2/workspace',
      headers: b.headers,
      payload: { name: 'Another workspace renamed' },
    });
    expect(other.statusCode, other.body).toBe(200);
    expect(await placesAtNine(a, date), 'still from the cache').toBe(2);
  });

  it('a message missed (another bus) is made good by the backstop TTL', async () => {
    const date = await staleDay(a);
    await renameThrough(deaf, 'Renamed where A cannot hear');
    expect(await placesAtNine(a, date), 'A has not heard').toBe(2);
    clock.advance(CACHE_BACKSTOP_TTL_MS);
    expect(await placesAtNine(a, date), 'the TTL ran out: A computed afresh').toBe(1);
  });

  it('after a reconnect every cached answer drops (messages may have been missed meanwhile)', async () => {
    const date = await staleDay(a);
    shared.reconnected();
    expect(await placesAtNine(a, date)).toBe(1);
  });
});
