import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { type Tx, UnitOfWork } from '../platform/db/unit-of-work.js';
import type { EventType, EventTypeOf } from './event-types.js';
import { HandlerRegistrationError, type OutboxHandler, registerHandlers } from './handlers.js';
import { recordEvents } from './outbox.repository.js';
import { dispatchOutbox } from './outbox-dispatch.service.js';

/**
 * The handler registry on a real store: each event goes to every handler of its type, all of
 * them inside the transaction that marks it dispatched, so a handler's fault leaves nothing half
 * done and the event is dispatched again next round. The handlers here write to a table of the
 * test's own, so what each did is read back from the store.
 */
let t: TestApp;
const NOW = Date.parse('2030-03-01T09:00:00Z');

beforeAll(async () => {
  t = await buildTestApp();
  await sql`CREATE TABLE outbox_test_effects (
    event_id uuid NOT NULL, handler text NOT NULL, txid bigint NOT NULL)`.execute(t.db);
});
afterEach(async () => {
  // Whatever a test left undispatched must not reach the next test's handlers.
  await t.db
    .updateTable('outbox_events')
    .set({ dispatched_at: new Date(NOW) })
    .execute();
  await sql`DELETE FROM outbox_test_effects`.execute(t.db);
});
afterAll(async () => {
  await sql`DROP TABLE outbox_test_effects`.execute(t.db);
  await t.close();
});

/** Commits one change's events for a made-up booking, as a service does in its unit of work. */
async function record(types: EventTypeOf<'booking'>[]): Promise<string> {
  const bookingId = randomUUID();
  const uow = new UnitOfWork(t.db, { invalidate: async () => {} });
  await uow.run(t.workspace.id, (tx) =>
    recordEvents(tx, {
      workspaceId: t.workspace.id,
      workspaceSlug: t.workspace.slug,
      at: new Date(NOW),
      subject: { kind: 'booking', id: bookingId, data: { uuid: bookingId } },
      events: types.map((type, index) => ({ type, sequence: index + 1 })),
      change: 'created',
    }),
  );
  return bookingId;
}

/** A handler that writes one row per event it gets, with the id of the transaction it ran in. */
function writer(
  name: string,
  types: EventType[],
  onFault: OutboxHandler['onFault'] = 'retry',
): OutboxHandler {
  return {
    name,
    types,
    onFault,
    async handle(tx: Tx, { events }) {
      for (const event of events) {
        await sql`INSERT INTO outbox_test_effects (event_id, handler, txid)
          VALUES (${event.id}, ${name}, txid_current())`.execute(tx);
      }
    },
  };
}

/** A handler that fails while `failing.now` is set, after writing its rows. */
function flaky(name: string, onFault: OutboxHandler['onFault'], failing: { now: boolean }): OutboxHandler {
  const inner = writer(name, ['booking-created'], onFault);
  return {
    ...inner,
    async handle(tx, batch) {
      await inner.handle(tx, batch);
      if (failing.now) throw new Error(`${name} failed`);
    },
  };
}

const effects = async () =>
  (
    await sql<{ event_type: string; handler: string; txid: string }>`
      SELECT e.type AS event_type, f.handler, f.txid::text AS txid
      FROM outbox_test_effects AS f JOIN outbox_events AS e ON e.id = f.event_id
      ORDER BY f.handler, e.sequence`.execute(t.db)
  ).rows;

const undispatched = async (bookingId: string) =>
  (
    await t.db
      .selectFrom('outbox_events')
      .select('type')
      .where('workspace_id', '=', t.workspace.id)
      .where('booking_id', '=', bookingId)
      .where('dispatched_at', 'is', null)
      .orderBy('sequence')
      .execute()
  ).map((row) => row.type);

describe('dispatching to registered handlers', () => {
  it('gives an event to every handler of its type, in one transaction with its dispatched mark', async () => {
    const registry = registerHandlers([
      writer('first', ['booking-created', 'booking-updated']),
      writer('second', ['booking-created']),
      writer('cancels_only', ['booking-canceled']),
    ]);
    const bookingId = await record(['booking-created', 'booking-updated']);

    expect(await dispatchOutbox(t.db, registry, NOW, 100)).toBe(2);
    const done = await effects();
    expect(done.map(({ event_type, handler }) => [handler, event_type])).toEqual([
      ['first', 'booking-created'],
      ['first', 'booking-updated'],
      ['second', 'booking-created'],
    ]);
    // One transaction for both handlers, and it is the one that marked the events dispatched.
    expect(new Set(done.map((row) => row.txid)).size).toBe(1);
    const marked = await sql<{ xmin: string }>`SELECT xmin::text AS xmin FROM outbox_events
      WHERE workspace_id = ${t.workspace.id} AND booking_id = ${bookingId}`.execute(t.db);
    // xmin is the 32-bit id of the transaction that last wrote the row; txid_current() extends it.
    const dispatcher = BigInt(done[0]!.txid) & 0xffffffffn;
    expect(marked.rows.map((row) => BigInt(row.xmin))).toEqual([dispatcher, dispatcher]);
    expect(await undispatched(bookingId)).toEqual([]);

    // Dispatched once: a second round finds nothing and runs no handler again.
    expect(await dispatchOutbox(t.db, registry, NOW, 100)).toBe(0);
    expect(await effects()).toHaveLength(3);
  });

  it("a 'retry' handler that throws rolls the whole dispatch back; the next round does it all once", async () => {
    const failing = { now: true };
    const registry = registerHandlers([
      writer('first', ['booking-created']),
      flaky('second', 'retry', failing),
    ]);
    const bookingId = await record(['booking-created']);

    // Without a logger (tests) the fault is the caller's; with one it is logged and the round goes on.
    await expect(dispatchOutbox(t.db, registry, NOW, 100)).rejects.toThrow('second failed');
    const logged: object[] = [];
    const logger = { error: (object: object) => void logged.push(object) };
    expect(await dispatchOutbox(t.db, registry, NOW, 100, undefined, logger)).toBe(0);
    expect(logged).toEqual([expect.objectContaining({ workspace: t.workspace.id })]);
    // Nothing half done: not the first handler's rows, not the second's, and no dispatched mark.
    expect(await effects()).toEqual([]);
    expect(await undispatched(bookingId)).toEqual(['booking-created']);

    failing.now = false;
    expect(await dispatchOutbox(t.db, registry, NOW, 100)).toBe(1);
    expect((await effects()).map((row) => row.handler)).toEqual(['first', 'second']);
    expect(await undispatched(bookingId)).toEqual([]);
  });

  it("a 'skip' handler that throws loses only its own work; the others' commit with the mark", async () => {
    const failing = { now: true };
    const registry = registerHandlers([
      flaky('optional', 'skip', failing),
      writer('last', ['booking-created']),
    ]);
    const bookingId = await record(['booking-created']);
    const logged: object[] = [];
    const logger = { error: (object: object) => void logged.push(object) };

    expect(await dispatchOutbox(t.db, registry, NOW, 100, undefined, logger)).toBe(1);
    expect(logged).toEqual([expect.objectContaining({ handler: 'optional', workspace: t.workspace.id })]);
    // The rows it wrote before it threw went with its savepoint.
    expect((await effects()).map((row) => row.handler)).toEqual(['last']);
    expect(await undispatched(bookingId)).toEqual([]);
  });
});

describe('registering handlers', () => {
  it('refuses two handlers of one name and types no event has', () => {
    expect(() => registerHandlers([writer('same', []), writer('same', [])])).toThrow(
      HandlerRegistrationError,
    );
    expect(() => registerHandlers([writer('odd', ['booking-exploded' as EventType])])).toThrow(
      /unknown event types booking-exploded/,
    );
    expect(() => registerHandlers([writer('Not A Name', [])])).toThrow(HandlerRegistrationError);
  });

  it('lists the handlers of a type in registration order', () => {
    const a = writer('a', ['booking-created']);
    const b = writer('b', ['booking-created', 'booking-canceled']);
    const registry = registerHandlers([a, b]);
    expect(registry.handlersOf('booking-created')).toEqual([a, b]);
    expect(registry.handlersOf('booking-canceled')).toEqual([b]);
    expect(registry.handlersOf('booking-updated')).toEqual([]);
    // '*' takes every event, one of a type this version does not list included.
    const all = { ...writer('all', []), types: '*' as const };
    const withAll = registerHandlers([a, all]);
    expect(withAll.handlersOf('booking-created')).toEqual([a, all]);
    expect(withAll.handlersOf('customer-merged')).toEqual([all]);
  });
});
