import net from 'node:net';
import path from 'node:path';
import { cpuTimeMs, type ServerChild, startChild } from './children.js';
import type { BenchDataset } from './dataset.js';
import { DIST_SRC, loadClient, serverNodeFlags } from './dist.js';
import { checkIntegrity, type IntegrityResult } from './integrity.js';
import { type LoadResult, runLoad } from './load.js';
import { createBody } from './pgbench.js';
import { slotPaths, type Timing } from './scenarios.js';
import { API_LINE, childEnv, prepareStore, scratchDatabase } from './stores.js';

/**
 * Issue 17.5: many processes on one PostgreSQL. One database, two set-ups running side by side:
 * one API process (its delivery worker inside, as `npm start` runs), and 3 API processes
 * (WORKER=off) with 2 delivery workers (`npm run worker`) behind a round-robin TCP proxy on
 * 127.0.0.1 (each client connection goes to the next API process). Creates/s and time-slots/s
 * are measured the same way for both, alternating (1, many, 1, many) so that a burst of other
 * load on a shared machine hits both alike; the SQL integrity check runs after. CPU per request
 * is the CPU of all Kairos processes of the set-up (PostgreSQL's not included).
 */
interface Figures {
  creates: LoadResult;
  slots: LoadResult;
  /** ms of CPU (all Kairos processes of the set-up) per request. */
  cpuMsPerCreate?: number;
  cpuMsPerSlots?: number;
}

export interface ManyProcessesResult {
  single: Figures[];
  many: (Figures & { apiProcesses: number; workers: number })[];
  integrity: IntegrityResult;
  outboxLeft: number;
}

const API_PROCESSES = 3;
const WORKERS = 2;
const SLOT_CONNECTIONS = 16;
const CREATE_CONNECTIONS = 64;
/** Measurements per set-up, alternating between them. */
const ROUNDS = 2;
/** pino's JSON start line of `npm run worker`; its pid stands in for a port. */
const WORKER_LINE = /"pid":(\d+)[^\n]*webhook delivery worker started/;

/** A TCP round-robin proxy: each accepted connection is piped to the next backend port. */
async function roundRobinProxy(ports: number[]): Promise<{ port: number; close(): Promise<void> }> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(ports[next++ % ports.length]!, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Time-slots (31 days, distinct queries: computed, not cached answers) and distinct creates. */
async function measure(
  origin: string,
  pids: number[],
  dataset: BenchDataset,
  timing: Timing,
  take: () => string,
): Promise<Figures> {
  const cpu = () => pids.reduce((sum, pid) => sum + (cpuTimeMs(pid) ?? Number.NaN), 0);
  const perRequest = (before: number, result: LoadResult) =>
    result.requests === 0 ? undefined : Math.round(((cpu() - before) / result.requests) * 100) / 100;
  const headers = { authorization: `Bearer ${dataset.apiKey}`, workspace: dataset.slug };
  const { distinctSlotsPath } = slotPaths(dataset);
  const paths = distinctSlotsPath(31);
  const slotOptions = { origin, path: paths(), paths, headers, connections: SLOT_CONNECTIONS };
  await runLoad({ ...slotOptions, duration: timing.warmupSeconds });
  const slotsCpu = cpu();
  const slots = await runLoad({ ...slotOptions, duration: timing.getSeconds });
  const cpuMsPerSlots = perRequest(slotsCpu, slots);
  const createOptions = {
    origin,
    path: '/api/public/v2/bookings',
    method: 'POST' as const,
    headers,
    bodies: take,
  };
  await runLoad({ ...createOptions, connections: 8, duration: timing.warmupSeconds });
  const createsCpu = cpu();
  const creates = await runLoad({
    ...createOptions,
    connections: CREATE_CONNECTIONS,
    duration: timing.postSeconds,
  });
  return { slots, creates, cpuMsPerSlots, cpuMsPerCreate: perRequest(createsCpu, creates) };
}

export async function benchManyProcesses(
  adminUrl: URL,
  timing: Timing,
  log: (line: string) => void,
): Promise<ManyProcessesResult> {
  const scratch = await scratchDatabase(adminUrl, 'bench_kairos_many');
  const { name, databaseUrl } = scratch;
  const children: ServerChild[] = [];
  try {
    log(`many processes on PostgreSQL: database ${name}; seeding`);
    const { dataset } = await prepareStore({ databaseUrl });
    let nextSlot = 0;
    let nextPhone = 0;
    const take = () => {
      const slot = dataset.freeSlots[nextSlot++];
      if (!slot) throw new Error('the data set ran out of free slots');
      return JSON.stringify(createBody(dataset, slot, `+49152${String(nextPhone++).padStart(8, '0')}`));
    };
    const api = (extra: Record<string, string>) =>
      startChild(
        [...serverNodeFlags(), path.join(DIST_SRC, 'main.js')],
        childEnv({ DATABASE_URL: databaseUrl, ...extra }),
        API_LINE,
      );

    log(`  starting 1 API process (worker inside), and ${API_PROCESSES} API processes + ${WORKERS} workers`);
    const one = await api({ WORKER: 'on' });
    children.push(one);
    const apis = await Promise.all(Array.from({ length: API_PROCESSES }, () => api({ WORKER: 'off' })));
    children.push(...apis);
    const workers = await Promise.all(
      Array.from({ length: WORKERS }, () =>
        startChild(
          [path.join(DIST_SRC, 'worker-main.js')],
          childEnv({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' }),
          WORKER_LINE,
        ),
      ),
    );
    children.push(...workers);
    const proxy = await roundRobinProxy(apis.map((child) => child.port));
    const single: Figures[] = [];
    const many: Figures[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        single.push(await measure(`http://127.0.0.1:${one.port}`, [one.pid], dataset, timing, take));
        log(
          `    round ${round}, 1 process: time-slots ${single.at(-1)!.slots.rps}/s, creates ${single.at(-1)!.creates.rps}/s`,
        );
        const pids = [...apis, ...workers].map((child) => child.pid);
        many.push(await measure(`http://127.0.0.1:${proxy.port}`, pids, dataset, timing, take));
        log(
          `    round ${round}, ${API_PROCESSES} + ${WORKERS}: time-slots ${many.at(-1)!.slots.rps}/s, creates ${many.at(-1)!.creates.rps}/s`,
        );
      }
    } finally {
      await proxy.close();
    }
    // Let the workers dispatch what the creates wrote, then stop everything before the check.
    const { openDatabase } = await loadClient();
    const database = await openDatabase({ databaseUrl, poolSize: 2 });
    let outboxLeft = 0;
    try {
      for (let i = 0; i < 100; i++) {
        const { n } = await database.db
          .selectFrom('outbox_events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('dispatched_at', 'is', null)
          .executeTakeFirstOrThrow();
        outboxLeft = Number(n);
        if (outboxLeft === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await Promise.all(children.map((child) => child.stop()));
      const integrity = await checkIntegrity(database.db);
      log(`    integrity ${integrity.ok ? 'ok' : 'FAILED'}; outbox events left undispatched: ${outboxLeft}`);
      return {
        single,
        many: many.map((figures) => ({ ...figures, apiProcesses: API_PROCESSES, workers: WORKERS })),
        integrity,
        outboxLeft,
      };
    } finally {
      await database.close();
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await scratch.drop().catch(() => {});
  }
}

/** The figures as a markdown table (docs/performance.md "Many processes"). */
export function renderManyProcesses(result: ManyProcessesResult): string {
  const row = (label: string, r: Figures) =>
    `| ${label} | ${r.slots.rps} | ${r.slots.p95} | ${r.cpuMsPerSlots ?? '–'} | ${r.creates.rps} | ${r.creates.p95} | ${r.cpuMsPerCreate ?? '–'} | ${JSON.stringify(r.creates.statusCounts)} |`;
  const many = result.many[0];
  return [
    '| set-up, round | time-slots/s (31 d, distinct) | p95 ms | CPU ms/req | creates/s | p95 ms | CPU ms/req | create statuses |',
    '|---|---|---|---|---|---|---|---|',
    ...result.single.flatMap((single, i) => [
      row(`1 API (worker inside), ${i + 1}`, single),
      row(`${many?.apiProcesses} API + ${many?.workers} workers, ${i + 1}`, result.many[i]!),
    ]),
    '',
    `Integrity after: ${result.integrity.ok ? 'ok' : 'FAILED'} (${JSON.stringify(result.integrity)}); ` +
      `outbox events left undispatched: ${result.outboxLeft}.`,
  ].join('\n');
}

/** bench/run.ts's entry: runs the scenario and prints its table; answers a crash message or undefined. */
export async function runManyProcesses(
  adminUrl: URL,
  timing: Timing,
  log: (line: string) => void,
): Promise<string | undefined> {
  try {
    log(`\n${renderManyProcesses(await benchManyProcesses(adminUrl, timing, log))}\n`);
    return undefined;
  } catch (error) {
    const message = `many processes: ${(error as Error).stack ?? error}`;
    console.error(`bench: ${message}`);
    return message;
  }
}
