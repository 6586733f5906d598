import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { FixedClock } from '../../test/helpers/clock.js';
import { UnitOfWork } from '../platform/db/unit-of-work.js';
import { type OutboxHandler, registerHandlers } from './handlers.js';
import { recordEvents } from './outbox.repository.js';
import { type LeasedQueue, QueueWorker, type WorkerLogger } from './queue-worker.js';

/**
 * The one poll loop of every leased-queue worker, on a real store: it pauses while the store
 * refuses it and resumes by itself, and stop() waits for the attempt in flight. The queue here is
 * the test's own (items in memory, attempts the test lets finish); the leases, the outbox
 * dispatch and the store's refusal are the real ones.
 */
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

/** A promise and the function that settles it, for waiting on what the worker does. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Items handed out once each; each attempt waits for `gate` (open unless the test closes it). */
function memoryQueue(items: string[], gate: Promise<void> = Promise.resolve()) {
  const started = signal();
  const recorded: string[] = [];
  const queue: LeasedQueue<string, 'done'> = {
    name: 'test',
    claimMs: 60_000,
    claim: async (_now, _leaseUntil, limit) => items.splice(0, limit),
    async attempt(claimed) {
      started.resolve();
      await gate;
      recorded.push(...claimed);
      return claimed.map(() => 'done' as const);
    },
  };
  return { queue, started: started.promise, recorded };
}

/** A logger that tells the test when a line matching `pattern` is written. */
function watchingLogger(): WorkerLogger & { next(pattern: RegExp): Promise<string> } {
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const write = (_object: object, message = '') => {
    for (const entry of waiting.filter((w) => w.pattern.test(message))) {
      waiting.splice(waiting.indexOf(entry), 1);
      entry.resolve(message);
    }
  };
  return {
    info: write,
    warn: write,
    error: write,
    next(pattern) {
      return new Promise((resolve) => waiting.push({ pattern, resolve }));
    },
  };
}

describe('the leased-queue poll loop', () => {
  it('pauses while the store refuses it, and resumes by itself: the events committed meanwhile are dispatched', async () => {
    const dispatched: string[] = [];
    const handled = signal();
    const handler: OutboxHandler = {
      name: 'seen',
      types: ['booking-created'],
      onFault: 'retry',
      async handle(_tx, { events }) {
        dispatched.push(...events.map((event) => event.booking_id ?? ''));
        handled.resolve();
      },
    };
    const logger = watchingLogger();
    const { queue } = memoryQueue([]);
    // A lease this short is renewed every round, so every round writes the worker's heartbeat.
    const worker = new QueueWorker(queue, {
      db: t.db,
      clock: { now: () => Date.now() },
      handlers: registerHandlers([handler]),
      logger,
      pollMs: 10,
      workerId: 'loop-outage',
      leaseMs: 3,
    });
    // The store refuses the heartbeat as PostgreSQL refuses a session while it starts up (57P03).
    await sql`CREATE FUNCTION outbox_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the database system is starting up' USING ERRCODE = '57P03'; END $$`.execute(
      t.db,
    );
    await sql`CREATE TRIGGER outbox_test_refuse BEFORE INSERT OR UPDATE ON delivery_workers
      FOR EACH ROW EXECUTE FUNCTION outbox_test_refuse()`.execute(t.db);
    try {
      const paused = logger.next(/store unreachable; test worker paused/);
      worker.start();
      await paused;
      expect(worker.paused).toBe(true);

      // A change commits while the worker is paused; then the store takes the worker again.
      const bookingId = randomUUID();
      await new UnitOfWork(t.db, { invalidate: async () => {} }).run(t.workspace.id, (tx) =>
        recordEvents(tx, {
          workspaceId: t.workspace.id,
          workspaceSlug: t.workspace.slug,
          at: new Date(),
          subject: { kind: 'booking', id: bookingId, data: { uuid: bookingId } },
          events: [{ type: 'booking-created', sequence: 1 }],
          change: null,
        }),
      );
      expect(dispatched).toEqual([]);
      const resumed = logger.next(/store reachable again; test worker resumed/);
      await sql`DROP TRIGGER outbox_test_refuse ON delivery_workers`.execute(t.db);
      await resumed;
      expect(worker.paused).toBe(false);
      await handled.promise;
      expect(dispatched).toEqual([bookingId]);
    } finally {
      await worker.stop();
      await sql`DROP TRIGGER IF EXISTS outbox_test_refuse ON delivery_workers`.execute(t.db);
      await sql`DROP FUNCTION outbox_test_refuse()`.execute(t.db);
    }
  });

  it('stop() resolves only once the attempt in flight has recorded its result, and frees its leases', async () => {
    const gate = signal();
    const { queue, started, recorded } = memoryQueue(['a', 'b'], gate.promise);
    const worker = new QueueWorker(queue, {
      db: t.db,
      clock: new FixedClock('2030-03-01T09:00:00Z'),
      handlers: registerHandlers([]),
      workerId: 'loop-stop',
    });
    worker.start();
    await started;
    expect(await heldBy('loop-stop')).toBeGreaterThan(0);

    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    // Let every callback that is ready run: stop() must still be waiting for the attempt.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    expect(recorded).toEqual([]);

    gate.resolve();
    await stopping;
    expect(recorded).toEqual(['a', 'b']);
    expect(await heldBy('loop-stop')).toBe(0);
  });
});

async function heldBy(workerId: string): Promise<number> {
  const rows = await t.db
    .selectFrom('worker_leases')
    .select('partition')
    .where('holder', '=', workerId)
    .execute();
  return rows.length;
}
