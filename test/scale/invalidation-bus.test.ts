import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type Invalidation,
  type InvalidationBus,
  invalidateOnMessage,
  MemoryBus,
  workspaceChangedNotifier,
} from '../../src/platform/bus/invalidation-bus.js';
import { openInvalidationBus } from '../../src/platform/bus/open-bus.js';
import { PostgresBus } from '../../src/platform/bus/postgres-bus.js';
import { RedisBus } from '../../src/platform/bus/redis-bus.js';

/**
 * The invalidation bus carries "workspace X changed" between processes. PostgreSQL
 * runs with TEST_DATABASE_URL, Redis with TEST_REDIS_URL (e.g. redis://127.0.0.1:6379); each on
 * its own channel, so test files running at once do not hear each other.
 */
const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const pgUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

const opened: InvalidationBus[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((bus) => bus.close()));
});

/** Messages a bus hands its listener, and a way to await the next one that matches. */
function collect(bus: InvalidationBus) {
  const seen: Invalidation[] = [];
  const waiters: { test: (m: Invalidation) => boolean; resolve: () => void }[] = [];
  bus.subscribe((message) => {
    seen.push(message);
    for (const waiter of waiters.splice(0)) {
      if (waiter.test(message)) waiter.resolve();
      else waiters.push(waiter);
    }
  });
  return {
    seen,
    next(test: (m: Invalidation) => boolean, timeoutMs = 10_000): Promise<void> {
      if (seen.some(test)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no such message; saw ${JSON.stringify(seen)}`)),
          timeoutMs,
        );
        waiters.push({
          test,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
  };
}

describe('in-process bus (PGlite)', () => {
  it('hands a published workspace id to every listener', async () => {
    const bus = new MemoryBus();
    const a = collect(bus);
    const b = collect(bus);
    const id = randomUUID();
    await bus.publish(id);
    expect(a.seen).toEqual([id]);
    expect(b.seen).toEqual([id]);
  });

  it('wires a "workspace X changed" callback to a cache that drops that workspace only', async () => {
    const bus = new MemoryBus();
    const dropped: string[] = [];
    invalidateOnMessage(bus, { dropWorkspace: (id) => dropped.push(id), dropAll: () => dropped.push('*') });
    const changed = workspaceChangedNotifier(bus);
    const id = randomUUID();
    changed(id);
    await Promise.resolve();
    expect(dropped).toEqual([id]);
  });

  it('is what openInvalidationBus gives without a server', async () => {
    expect((await openInvalidationBus({})).kind).toBe('memory');
  });
});

type Kind = 'postgres' | 'redis';
const transports: { kind: Kind; url: string | undefined; kill(bus: InvalidationBus): Promise<void> }[] = [
  {
    kind: 'postgres',
    url: pgUrl,
    async kill(bus) {
      const pid = await (bus as PostgresBus).listenerPid();
      const admin = new pg.Client({ connectionString: pgUrl });
      await admin.connect();
      try {
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      } finally {
        await admin.end();
      }
    },
  },
  {
    kind: 'redis',
    url: redisUrl,
    async kill(bus) {
      const name = (bus as RedisBus & { name: string }).name;
      const admin = new Redis(redisUrl!);
      try {
        const list = String(await admin.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
        const line = list.split('\n').find((entry) => entry.includes(` name=${name} `));
        const id = /\bid=(\d+)/.exec(line ?? '')?.[1];
        if (!id) throw new Error(`no subscriber named ${name} in ${list}`);
        await admin.call('CLIENT', 'KILL', 'ID', id);
      } finally {
        admin.disconnect();
      }
    },
  },
];

for (const transport of transports) {
  describe.runIf(transport.url)(`${transport.kind} bus`, () => {
    const channel = `kairos_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    async function open(): Promise<InvalidationBus> {
      const name = `kairos-test-${randomUUID().slice(0, 8)}`;
      const bus =
        transport.kind === 'redis'
          ? new RedisBus({ url: transport.url!, channel, connectionName: name })
          : new PostgresBus({ connectionString: transport.url!, channel });
      Object.assign(bus, { name });
      opened.push(bus);
      await bus.ready();
      return bus;
    }

    it('is the one openInvalidationBus picks', async () => {
      const config =
        transport.kind === 'redis'
          ? { redisUrl: transport.url, databaseUrl: pgUrl }
          : { databaseUrl: transport.url };
      const bus = await openInvalidationBus({ ...config, channel });
      opened.push(bus);
      expect(bus.kind).toBe(transport.kind);
    });

    it('carries a workspace id from another process to this one', async () => {
      const here = collect(await open());
      const id = randomUUID();
      await execFileAsync(
        process.execPath,
        ['--import', 'tsx', 'test/scale/bus-publish.ts', transport.kind, transport.url!, channel, id],
        { cwd: ROOT },
      );
      await here.next((message) => message === id);
    }, 30_000);

    it('reaches every client, the publisher included, and only with the workspace sent', async () => {
      const a = await open();
      const fromA = collect(a);
      const fromB = collect(await open());
      const id = randomUUID();
      await a.publish(id);
      await fromA.next((message) => message === id);
      await fromB.next((message) => message === id);
      expect(fromB.seen).toEqual([id]);
    });

    it('reconnects after its connection is killed, says "anything may have changed", and hears again', async () => {
      const bus = await open();
      const heard = collect(bus);
      const publisher = await open();
      await transport.kill(bus);
      await heard.next((message) => message === undefined);
      const id = randomUUID();
      // The listener is back once the "anything" message came; a publish now reaches it.
      await publisher.publish(id);
      await heard.next((message) => message === id);
    }, 30_000);
  });
}
