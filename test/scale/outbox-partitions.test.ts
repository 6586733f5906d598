import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PARTITIONS } from '../../src/outbox/partitions.js';
import { type Database, type Db, openDatabase } from '../../src/platform/db/client.js';
import { systemClock } from '../../src/platform/http/types.js';
import { claimDueDeliveries } from '../../src/webhooks/deliveries.repository.js';
import { WebhookWorker } from '../../src/webhooks/delivery-worker.js';
import { generateWebhookSecret } from '../../src/webhooks/signing.js';
import { outboxHandlers } from '../../src/workers.js';
import { FixedClock } from '../helpers/clock.js';
import { databaseUrlOf, openTestDatabase } from '../helpers/test-db.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';

/**
 * Delivery workers claim the outbox per partition, each partition held by one worker
 * under a lease. Workspaces, webhooks and events are written straight into the store (the API is
 * not what is tested here), then real workers send to a real local HTTP receiver.
 */
let database: Database;
/** A second pool on the same store (PostgreSQL), or the same store (PGlite). */
let second: Database | undefined;
let secondDb: Db;
let receiver: WebhookReceiver;
let runs = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    // Each test file has a database of its own (test/helpers/test-db.ts): the second pool joins it.
    const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(database.db);
    second = await openDatabase({ databaseUrl: databaseUrlOf(url, rows[0]!.name), poolSize: 10 });
    secondDb = second.db;
  } else {
    secondDb = database.db;
  }
  receiver = await WebhookReceiver.start();
});

afterAll(async () => {
  await receiver?.close();
  await second?.close();
  await database?.close();
});

/**
 * `workspaces` new workspaces, each with one webhook to the receiver and `bookings` bookings of
 * `eventsPerBooking` events (sequence 1..n). Returns the number of events.
 */
async function seedOutbox(workspaces: number, bookings: number, eventsPerBooking: number, at: Date) {
  runs += 1;
  const db = database.db;
  const prefix = `run${runs}-`;
  await sql`
    INSERT INTO workspaces (slug, name)
    SELECT ${prefix} || g, 'Outbox ' || g FROM generate_series(1, ${workspaces}::int) AS g`.execute(db);
  await sql`
    INSERT INTO webhooks (workspace_id, url, secret)
    SELECT id, ${receiver.url}, ${generateWebhookSecret()} FROM workspaces WHERE slug LIKE ${`${prefix}%`}`.execute(
    db,
  );
  await sql`
    INSERT INTO outbox_events (workspace_id, booking_id, type, sequence, payload, created_at)
    SELECT w.id, b.booking_id, 'booking-updated', s,
           jsonb_build_object('type', 'booking-updated', 'timestamp', ${at.toISOString()}::text,
                              'workspace', w.slug, 'sequence', s,
                              'data', jsonb_build_object('booking', jsonb_build_object('uuid', b.booking_id))),
           ${at}::timestamptz + (s * interval '1 millisecond')
    FROM workspaces AS w
    CROSS JOIN LATERAL (SELECT gen_random_uuid() AS booking_id, w.id AS wid
                        FROM generate_series(1, ${bookings}::int)) AS b
    CROSS JOIN generate_series(1, ${eventsPerBooking}::int) AS s
    WHERE w.slug LIKE ${`${prefix}%`}`.execute(db);
  return workspaces * bookings * eventsPerBooking;
}

async function openDeliveries(): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT (SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL)
         + (SELECT count(*) FROM webhook_deliveries WHERE state <> 'succeeded') AS n`.execute(database.db);
  return Number(rows[0]!.n);
}

/**
 * Runs every worker's rounds concurrently until the receiver got `expected` requests since
 * `from` (all succeed at once, so one request per event); answers each worker's sends. A worker
 * with nothing to do waits a little instead of spinning, so it does not starve the others.
 */
async function drain(workers: WebhookWorker[], from: number, expected: number, deadlineMs: number) {
  const sends = workers.map(() => 0);
  const deadline = Date.now() + deadlineMs;
  const done = () => receiver.requests.length - from >= expected;
  await Promise.all(
    workers.map(async (worker, index) => {
      while (!done()) {
        if (Date.now() > deadline)
          throw new Error(`not drained: ${receiver.requests.length - from} of ${expected}`);
        const round = await worker.runOnce();
        sends[index]! += round.outcomes.length;
        if (round.outcomes.length === 0 && round.dispatched === 0)
          await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  expect(await openDeliveries()).toBe(0);
  return sends;
}

/** Per booking, the sequences in the order they arrived; every webhook-id#attempt's count. */
function received(from: number) {
  const byBooking = new Map<string, number[]>();
  for (const request of receiver.requests.slice(from)) {
    const body = request.json() as { sequence: number; data: { booking: { uuid: string } } };
    const list = byBooking.get(body.data.booking.uuid) ?? [];
    list.push(body.sequence);
    byBooking.set(body.data.booking.uuid, list);
  }
  const counts = new Map<string, number>();
  for (const request of receiver.requests.slice(from)) {
    const key = `${request.id}#${request.attempt}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return { byBooking, counts };
}

function worker(db: Db, workerId: string, clock = systemClock, leaseMs?: number) {
  return new WebhookWorker({
    handlers: outboxHandlers(),
    db,
    clock,
    allowPrivate: true,
    // Long: on a loaded machine a send timing out would count as a retry, not as a test failure.
    timeoutMs: 30_000,
    batchSize: 100,
    workerId,
    ...(leaseMs ? { leaseMs } : {}),
  });
}

async function partitionOf(ids: string[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await database.db
    .selectFrom('webhook_deliveries')
    .select('partition')
    .where('id', 'in', ids)
    .execute();
  return rows.map((row) => row.partition);
}

describe('outbox by partition (issue 17.3)', () => {
  it('two workers split the partitions and never send one attempt twice', async () => {
    const from = receiver.requests.length;
    const a = worker(database.db, 'split-a');
    const b = worker(secondDb, 'split-b');
    // The first to come takes all; once both beat, each gives back or takes to half.
    for (const w of [a, b, a, b]) await w.leases.renew();
    const heldA = await a.leases.current();
    const heldB = await b.leases.current();
    expect(heldA).toHaveLength(ALL_PARTITIONS.length / 2);
    expect(heldB).toHaveLength(ALL_PARTITIONS.length / 2);
    expect([...heldA, ...heldB].sort((x, y) => x - y)).toEqual([...ALL_PARTITIONS]);

    const events = await seedOutbox(40, 2, 3, new Date());
    // A claim made with A's partitions only ever holds deliveries of A's partitions.
    await a.runOnce(); // fans out A's events (and sends some)
    await b.runOnce();
    const now = Date.now();
    const claimedByA = await claimDueDeliveries(database.db, now, now + 60_000, 1000, heldA);
    for (const partition of await partitionOf(claimedByA.map((d) => d.id)))
      expect(heldA).toContain(partition);
    // Give those claims back, as if their lease had run out, so the workers send them below.
    await sql`UPDATE webhook_deliveries SET locked_until = now() - interval '1 second' WHERE state = 'sending'`.execute(
      database.db,
    );

    const sends = await drain([a, b], from, events, 60_000);
    expect(sends[0]).toBeGreaterThan(0);
    expect(sends[1]).toBeGreaterThan(0);
    const { counts, byBooking } = received(from);
    expect(counts.size).toBe(events);
    expect([...counts.values()].filter((count) => count > 1)).toEqual([]);
    expect(byBooking.size).toBe(80);
    await a.stop();
    await b.stop();
  }, 90_000);

  it('frees the partitions of a worker that died holding them once its lease ran out', async () => {
    const from = receiver.requests.length;
    const clock = new FixedClock(new Date().toISOString());
    const leaseMs = 30_000;
    // The dead worker took every partition, then its process was killed: no stop(), no release.
    const dead = worker(database.db, 'dead', clock, leaseMs);
    expect(await dead.leases.renew()).toEqual([...ALL_PARTITIONS]);
    const live = worker(secondDb, 'live', clock, leaseMs);
    expect(await live.leases.renew()).toEqual([]);

    const events = await seedOutbox(10, 1, 2, new Date(clock.now()));
    expect((await live.runOnce()).outcomes).toEqual([]);
    clock.advance(leaseMs - 1000);
    await live.leases.renew();
    expect((await live.runOnce()).outcomes).toEqual([]);
    expect(receiver.requests.length).toBe(from);

    clock.advance(2000); // past the dead worker's lease and heartbeat
    expect(await live.leases.renew()).toEqual([...ALL_PARTITIONS]);
    await drain([live], from, events, 30_000);
    expect(received(from).counts.size).toBe(events);
    await live.stop();
  }, 60_000);

  // PostgreSQL: 10,000 events over 200 workspaces, with workers on two pools. PGlite
  // runs every statement of every worker one after another in this process, so there the same
  // drain is a fifth of the size (2,000 over 40) to stay within a minute; the claim is the same.
  const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
  const WORKSPACES = onPostgres ? 200 : 40;
  const EVENTS = WORKSPACES * 10 * 5;
  for (const count of [1, 4]) {
    it(`drains ${EVENTS} events over ${WORKSPACES} workspaces with ${count} worker(s), in order per booking`, async () => {
      const from = receiver.requests.length;
      const workers = Array.from({ length: count }, (_, i) =>
        worker(i % 2 === 0 ? database.db : secondDb, `drain${count}-${i}`),
      );
      for (let pass = 0; pass < 2; pass += 1) for (const w of workers) await w.leases.renew();
      const held = await Promise.all(workers.map((w) => w.leases.current()));
      expect(held.flat().sort((x, y) => x - y)).toEqual([...ALL_PARTITIONS]);

      try {
        const events = await seedOutbox(WORKSPACES, 10, 5, new Date());
        expect(events).toBe(EVENTS);
        const sends = await drain(workers, from, events, 240_000);
        for (const n of sends) expect(n).toBeGreaterThan(0);

        const { counts, byBooking } = received(from);
        expect(counts.size).toBe(events);
        expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
        expect(byBooking.size).toBe(WORKSPACES * 10);
        const outOfOrder = [...byBooking].filter(([, sequences]) => sequences.join() !== '1,2,3,4,5');
        expect(outOfOrder.slice(0, 3)).toEqual([]);
      } finally {
        // A failed drain must not leave its leases held for the next test.
        for (const w of workers) await w.stop();
      }
    }, 300_000);
  }
});
