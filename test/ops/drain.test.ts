import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBuilt, ownStore, ServerProcess, type Store } from '../helpers/server-process.js';
import { heldRequest } from './process-helpers.js';
import { call, countBy, isSuccess, WriteLoop } from './write-loop.js';

/**
 * Shutdown, on the store of this pass (PGlite in a temp DATA_DIR; PostgreSQL when
 * TEST_DATABASE_URL is set): every request whose connection was accepted before SIGTERM is
 * answered, idle keep-alive connections are closed, and the process exits within the drain
 * deadline (SHUTDOWN_DRAIN_MS) — by itself with 0 when the work is done, with 1 at the deadline
 * when it is not.
 */
const API = '/api/public/v2';
const adminUrl = process.env.TEST_DATABASE_URL;
const storeName = adminUrl ? 'PostgreSQL' : 'PGlite';

let store: Store;
let removeStore: () => Promise<void>;
let demo: { slug: string; apiKey: string };
const servers: ServerProcess[] = [];

async function startServer(env: NodeJS.ProcessEnv = {}) {
  const server = new ServerProcess(store, { env: { API_RATE_LIMIT_PER_MINUTE: '0', ...env } });
  servers.push(server);
  const started = await server.started;
  if (started.demo) demo = started.demo;
  return {
    server,
    base: started.base,
    auth: { authorization: `Bearer ${demo.apiKey}`, workspace: demo.slug },
  };
}

/** SIGTERM, then how long the process took to exit and with what. */
async function terminate(server: ServerProcess) {
  const at = Date.now();
  server.child.kill('SIGTERM');
  const exit = await server.exited;
  return { at, exitMs: Date.now() - at, code: exit.code };
}

describe(`drain on SIGTERM (${storeName})`, () => {
  beforeAll(async () => {
    await ensureServerBuilt();
    ({ store, remove: removeStore } = await ownStore('drain'));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await removeStore?.();
  });

  it('answers every request of a burst of new connections sent right before SIGTERM', async () => {
    const { server, base, auth } = await startServer();
    // 60 new connections, each with one write; SIGTERM once all are connected and written.
    const requests = Array.from({ length: 60 }, (_, index) =>
      call(false, base, 'POST', `${API}/locations`, auth, { name: `Burst ${index}`, timezone: 'UTC' }),
    );
    const replies = requests.map((request) =>
      request.reply.then(
        (reply) => reply.status,
        (error: Error) => `${error.message}`,
      ),
    );
    await waitUntil(() => requests.every((request) => request.written() !== undefined));
    const stopped = await terminate(server);
    const statuses = await Promise.all(replies);

    expect(
      countBy(statuses.map(String)),
      `exit ${stopped.code} after ${stopped.exitMs} ms\n${server.log}`,
    ).toEqual({ 201: 60 });
    expect(stopped.code, server.log).toBe(0);
    expect(stopped.exitMs).toBeLessThan(10_000);
    console.log(
      `drain (${storeName}, burst): 60 in flight, 0 failed; exit ${stopped.exitMs} ms after SIGTERM`,
    );
  }, 120_000);

  it('answers every request in flight under steady keep-alive load, closes idle connections, exits soon', async () => {
    const { server, base, auth } = await startServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
    // An idle keep-alive connection: it must be closed by the server, not keep the process alive.
    const idle = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await call(idle, base, 'GET', '/health', {}).reply;
    const idleSocketClosed = new Promise<void>((resolve) => {
      const [socket] = Object.values(idle.freeSockets).flat();
      socket?.once('close', () => resolve());
    });
    const loop = new WriteLoop(20, (writer, iteration) =>
      iteration % 2 === 0
        ? {
            kind: 'write',
            request: call(agent, base, 'POST', `${API}/locations`, auth, {
              name: `Steady ${writer}-${iteration}`,
              timezone: 'UTC',
            }),
          }
        : { kind: 'read', request: call(agent, base, 'GET', `${API}/locations?per_page=5`, auth) },
    );
    try {
      await loop.waitForSuccesses(100, 60_000);
      const stopped = await terminate(server);
      await idleSocketClosed;
      await loop.stop();

      // In flight: written before the signal. Those written after it may be refused.
      const inFlight = loop.answers.filter(
        (answer) => answer.writtenAt !== undefined && answer.writtenAt < stopped.at,
      );
      const answeredAfterSignal = inFlight.filter((answer) => answer.at >= stopped.at);
      const failed = inFlight.filter((answer) => !isSuccess(answer));
      expect(failed.map((answer) => `${answer.kind} ${answer.status} ${answer.error ?? ''}`)).toEqual([]);
      expect(answeredAfterSignal.length).toBeGreaterThan(0);
      // Whatever was refused after the signal was refused by the socket, never with another body.
      for (const answer of loop.answers.filter((a) => a.status >= 300)) {
        expect(answer.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      }
      expect(stopped.code, server.log).toBe(0);
      expect(stopped.exitMs).toBeLessThan(10_000);
      console.log(
        `drain (${storeName}, steady load, 20 keep-alive clients): ${answeredAfterSignal.length} requests in flight at SIGTERM, ` +
          `${failed.length} failed; exit ${stopped.exitMs} ms after SIGTERM`,
      );
    } finally {
      await loop.stop();
      agent.destroy();
      idle.destroy();
    }
  }, 120_000);

  it('exits with 1 at the drain deadline when a request never finishes', async () => {
    const { server, base, auth } = await startServer({ SHUTDOWN_DRAIN_MS: '1500' });
    // A write whose body never comes: in flight for ever.
    const stuck = heldRequest(base, 'POST', `${API}/locations`, auth, { name: 'Never', timezone: 'UTC' });
    stuck.response.catch(() => {});
    await stuck.accepted;
    const stopped = await terminate(server);
    expect(stopped.code).toBe(1);
    expect(stopped.exitMs).toBeGreaterThanOrEqual(1_400);
    expect(stopped.exitMs).toBeLessThan(5_000);
  }, 60_000);
});

async function waitUntil(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((resolve) => setImmediate(resolve));
  }
}
