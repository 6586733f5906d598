import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchOutbox } from '../../src/outbox/outbox-dispatch.service.js';
import { type Database, openDatabase } from '../../src/platform/db/client.js';
import type { Tx } from '../../src/platform/db/unit-of-work.js';
import { tryLockWorkspace } from '../../src/platform/db/workspace-locks.repository.js';
import { outboxHandlers } from '../../src/workers.js';
import { at, bookingBody, type Studio } from '../bookings/bookings-kit.js';
import { bookingFixture } from '../helpers/booking-fixture.js';
import { API, buildTestApp } from '../helpers/build-test-app.js';
import { FixedClock } from '../helpers/clock.js';

/**
 * One workspace, one worker: on the cluster, with Citus telling each command it sends
 * to a node (citus.log_remote_commands) and each query it splits over several shards
 * (citus.multi_task_query_log_level), every tenant request type and a dispatch round of one
 * workspace are recorded. None may touch more than one node, split a query over shards, or
 * commit in two phases.
 */
const url = process.env.TEST_CITUS_URL;
if (!url) throw new Error('the Citus suite runs with TEST_CITUS_URL (npm run test:citus)');

interface Notice {
  message: string;
  detail: string | undefined;
}
let heard: Notice[] = [];
let database: Database;
let s: Studio;

beforeAll(async () => {
  database = await openDatabase({
    databaseUrl: url,
    poolSize: 4,
    settings: {
      'citus.log_remote_commands': 'on',
      'citus.log_local_commands': 'on',
      'citus.multi_task_query_log_level': 'notice',
      // A dispatch that waits on another workspace's lock fails the test instead of hanging it.
      statement_timeout: '10s',
    },
    onNotice: (notice) => heard.push(notice),
  });
  const clock = new FixedClock('2026-09-01T08:00:00Z');
  const t = await buildTestApp({ clock, database });
  s = { clock, t, f: await bookingFixture(t), nextDay: () => '2026-09-10' };
});
afterAll(async () => {
  await s?.t.close();
  await database?.close();
});

/**
 * A dispatch round starts by asking which workspaces of its leased partitions have undispatched
 * events: a partition spans many workspaces by design, so that one read asks every shard. What
 * follows it, each workspace's dispatch, is what must stay on the workspace's node.
 */
/** A shard or table of a reference table, as Citus names it in the commands it logs. */
const REFERENCE_TABLE = /\b(public\.)?(workspaces|users|sessions|password_reset_tokens)(_\d+)?\b/;
const ROW_LOCK = /\bFOR\s+(NO\s+KEY\s+)?(UPDATE|SHARE)\b/i;

const ROUND_DISCOVERY = /SELECT DISTINCT workspace_id FROM public\.outbox_events/;

/** What one piece of work made Citus do: the nodes it sent commands to, and what it flagged. */
async function recorded(work: () => Promise<unknown>) {
  heard = [];
  await work();
  const discovery = heard.findIndex((n) => ROUND_DISCOVERY.test(n.message));
  if (discovery >= 0) {
    // The flag just before it, and the same read sent to each node.
    heard = heard.filter((n, i) => !ROUND_DISCOVERY.test(n.message) && i !== discovery - 1);
  }
  const commands = heard.filter((n) => n.message.startsWith('issuing '));
  return {
    nodes: [...new Set(commands.map((n) => /on server \S+@(\S+?) /.exec(n.detail ?? '')?.[1] ?? '?'))],
    // Citus flags a query before it sends its tasks: the flag, then the commands of that query.
    multiShard: heard.flatMap((n, i) =>
      /multi-task|multi-shard/i.test(n.message)
        ? [`${n.message}: ${heard[i + 1]?.message.slice(0, 300)}`]
        : [],
    ),
    twoPhase: commands.filter((n) => /PREPARE TRANSACTION/i.test(n.message)).map((n) => n.message),
    // Commands run on the coordinator itself (its copies of the reference tables) included.
    referenceLocks: heard
      .filter((n) => /^(issuing|executing the command locally)/.test(n.message))
      .filter((n) => REFERENCE_TABLE.test(n.message) && ROW_LOCK.test(n.message))
      .map((n) => n.message.slice(0, 200)),
    commands: commands.map((n) => n.message.slice(0, 160)),
  };
}

async function expectOneNode(name: string, work: () => Promise<unknown>) {
  const seen = await recorded(work);
  expect(seen.commands.length, `${name}: Citus sent nothing, so nothing was checked`).toBeGreaterThan(0);
  expect(seen.multiShard, `${name}: a query over several shards`).toEqual([]);
  expect(seen.twoPhase, `${name}: a two-phase commit`).toEqual([]);
  expect(seen.referenceLocks, `${name}: a row lock on a reference table`).toEqual([]);
  expect(seen.nodes, `${name}: commands to more than one node:\n${seen.commands.join('\n')}`).toHaveLength(1);
}

function call(method: string, path: string, body?: unknown) {
  return async () => {
    const response = await s.t.call(method, path, body);
    expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
}

describe('one workspace, one node, on the Citus cluster', () => {
  let booking: string;

  it('time-slots over 31 days', async () => {
    const query = `service_uuid=${s.f.haircut.id}&range_start=2026-09-02&range_end=2026-10-02`;
    await expectOneNode('slots', call('GET', `/locations/${s.f.location.id}/time-slots?${query}`));
  });

  it('a booking create, read back', async () => {
    await expectOneNode('create', async () => {
      const created = await call('POST', '/bookings', bookingBody(s.f, at('2026-09-10', '10:00')))();
      booking = created.data.uuid;
    });
  });

  it('reads: the booking, the bookings list, locations, services, staffers, statuses', async () => {
    for (const path of [
      `/bookings/${booking}`,
      '/bookings?per_page=10',
      '/locations',
      `/locations/${s.f.location.id}/services`,
      `/locations/${s.f.location.id}/staffers`,
      '/bookings/statuses',
    ]) {
      await expectOneNode(`GET ${path}`, call('GET', path));
    }
  });

  it('a reschedule and a cancel', async () => {
    await expectOneNode(
      'reschedule',
      call('PUT', `/bookings/${booking}/reschedule`, { reserved_on: at('2026-09-10', '12:00') }),
    );
    await expectOneNode('cancel', call('PUT', `/bookings/${booking}/status/cancel`, {}));
  });

  it('an idempotent create and its retry', async () => {
    const body = bookingBody(s.f, at('2026-09-11', '10:00'));
    const send = () =>
      s.t.app.inject({
        method: 'POST',
        url: `${API}/bookings`,
        headers: { ...s.t.headers, 'idempotency-key': 'one-node-key' },
        payload: body,
      });
    await expectOneNode('idempotent create', send);
    await expectOneNode('idempotent retry', async () => expect((await send()).statusCode).toBe(201));
  });

  it("a dispatch round of the workspace's outbox", async () => {
    await s.t.call('POST', '/webhooks', { url: 'https://93.184.216.34/hook', events: ['booking-created'] });
    const partition = await partitionOf(s.t.workspace.id);
    // A round first that empties the partition: other workspaces in it (on other nodes) may have
    // events waiting, and the measured round must be this workspace's alone.
    await dispatchOutbox(database.db, outboxHandlers(), s.clock.now(), 1000, [partition]);
    await s.t.call('POST', '/bookings', bookingBody(s.f, at('2026-09-12', '10:00')));
    await expectOneNode('dispatch', async () => {
      expect(await dispatchOutbox(database.db, outboxHandlers(), s.clock.now(), 100, [partition])).toBe(1);
    });
  });
});

describe('dispatchers of different workspaces', () => {
  it("go on while another workspace's dispatch is held", async () => {
    const other = await buildTestApp({ database, clock: s.clock });
    const f = await bookingFixture(other);
    await other.call('POST', '/webhooks', { url: 'https://93.184.216.34/hook', events: ['booking-created'] });
    const created = await other.call('POST', '/bookings', bookingBody(f, at('2026-09-10', '10:00')));
    expect(created.statusCode).toBe(201);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // This workspace's dispatch lock, held by an open transaction.
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = database.db.transaction().execute(async (tx) => {
      expect(await tryLockWorkspace(tx as Tx, s.t.workspace.id, 'outbox_dispatch')).toBe(true);
      locked();
      await held;
    });
    await isLocked;
    try {
      const partition = await partitionOf(other.workspace.id);
      // Another workspace dispatches meanwhile (a wait on the held lock would hang this).
      expect(
        await dispatchOutbox(database.db, outboxHandlers(), s.clock.now(), 100, [partition]),
      ).toBeGreaterThan(0);
      // And the held workspace is skipped, not waited for.
      const own = await database.db
        .transaction()
        .execute((tx) => tryLockWorkspace(tx as Tx, s.t.workspace.id, 'outbox_dispatch'));
      expect(own).toBe(false);
    } finally {
      release();
      await holder;
      await other.close();
    }
  });
});

async function partitionOf(workspaceId: string): Promise<number> {
  const row = await database.db
    .selectFrom('outbox_events')
    .select('partition')
    .where('workspace_id', '=', workspaceId)
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.partition;
}
