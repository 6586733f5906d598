/**
 * `npm run bench:restart`: how soon the server answers `/health` again after `kill -9` in the
 * middle of writes, as a supervisor restarting it would see. The built server runs as `npm start`
 * runs it (worker on) on a fresh DATA_DIR with the bench data set, and with BENCH_DATABASE_URL
 * also on a scratch PostgreSQL database. Each round: clients book and cancel for a few seconds
 * (the embedded store's WAL grows), the server gets SIGKILL, a new one starts on the same store
 * and port, and the time from its spawn to the first 200 of `/health` is recorded, then the
 * bookings committed before the kill are counted on the new server: a restart loses none.
 *
 * Environment: RESTART_ROUNDS (default 5), RESTART_LOAD_SECONDS (default 5), BENCH_DIST.
 * Only 127.0.0.1 is ever contacted; every child and the temp folder go when it ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { abort, registerCleanup } from './children.js';
import type { BenchDataset, FreeSlot } from './dataset.js';
import { DIST_SRC, serverNodeFlags } from './dist.js';
import { assertLoopback, percentile } from './load.js';
import { loadAverage, machineInfo } from './machine.js';
import { createBody } from './pgbench.js';
import { checkedDatabaseUrl, childEnv, prepareStore, scratchDatabase } from './stores.js';

const ROUNDS = Number(process.env.RESTART_ROUNDS ?? 5);
const LOAD_SECONDS = Number(process.env.RESTART_LOAD_SECONDS ?? 5);
const CLIENTS = 8;
const PREFIX = '/api/public/v2';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

function spawnServer(env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [...serverNodeFlags(), path.join(DIST_SRC, 'main.js')], {
    env,
    stdio: 'ignore',
  });
  registerCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return child;
}

/** Ms from now until `/health` answers 200, polling every 10 ms (a refused connection retries). */
async function untilHealthy(origin: string, child: ChildProcess, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null)
      throw new Error(`the server exited (${child.exitCode}) before /health answered`);
    try {
      const response = await fetch(`${origin}/health`);
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - started;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`/health did not answer 200 within ${timeoutMs} ms`);
}

/** Books free slots (and cancels every other one) until `until`; the uuids of the 201s. */
async function write(origin: string, dataset: BenchDataset, slots: FreeSlot[], until: number) {
  const headers = {
    authorization: `Bearer ${dataset.apiKey}`,
    workspace: dataset.slug,
    'content-type': 'application/json',
  };
  const committed: string[] = [];
  let phone = 0;
  const client = async () => {
    while (performance.now() < until) {
      const slot = slots.shift();
      if (!slot) throw new Error('ran out of free slots');
      const body = createBody(dataset, slot, `+49153${String(phone++ % 100_000).padStart(8, '0')}`);
      try {
        const response = await fetch(`${origin}${PREFIX}/bookings`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': randomUUID() },
          body: JSON.stringify(body),
        });
        const text = await response.text();
        if (response.status === 201)
          committed.push((JSON.parse(text) as { data: { uuid: string } }).data.uuid);
      } catch {
        return; // the server was killed under this request
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return committed;
}

async function rounds(label: string, env: Record<string, string>, dataset: BenchDataset): Promise<number[]> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  assertLoopback(origin);
  const serverEnv = childEnv({ ...env, PORT: String(port), WORKER: 'on' });
  const slots = [...dataset.freeSlots];
  let child = spawnServer(serverEnv);
  await untilHealthy(origin, child);
  const times: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    // Writes run while the kill lands: the kill comes LOAD_SECONDS into them.
    const writing = write(origin, dataset, slots, performance.now() + LOAD_SECONDS * 1000 + 2_000);
    await new Promise((resolve) => setTimeout(resolve, LOAD_SECONDS * 1000));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const committed = await writing;
    child = spawnServer(serverEnv);
    const ms = await untilHealthy(origin, child);
    times.push(ms);
    const missing = await countMissing(origin, dataset, committed);
    console.log(
      `  ${label} round ${round}: /health after ${Math.round(ms)} ms; ${committed.length} bookings answered 201 before the kill, ${missing} missing after the restart`,
    );
    if (missing > 0) throw new Error(`${label}: ${missing} committed bookings lost across kill -9`);
  }
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return times;
}

async function countMissing(origin: string, dataset: BenchDataset, uuids: string[]): Promise<number> {
  const headers = { authorization: `Bearer ${dataset.apiKey}`, workspace: dataset.slug };
  let missing = 0;
  for (const uuid of uuids) {
    const response = await fetch(`${origin}${PREFIX}/bookings/${uuid}`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) missing += 1;
  }
  return missing;
}

const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return `min ${Math.round(sorted[0]!)} ms, median ${Math.round(percentile(sorted, 50))} ms, max ${Math.round(sorted.at(-1)!)} ms`;
};

async function main(): Promise<void> {
  const machine = machineInfo();
  console.log(
    `restart after kill -9: ${ROUNDS} rounds, ${LOAD_SECONDS} s of writes before each kill; ${machine.cpus} CPUs ` +
      `(${machine.cpuModel}), Node ${machine.node}, load ${machine.loadAtStart.join(' ')}, ${new Date().toISOString()}, dist ${DIST_SRC}`,
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-restart-'));
  registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const dataDir = path.join(dir, 'data');
  const pglite = await prepareStore({ dataDir });
  const results: [string, number[]][] = [
    ['PGlite', await rounds('PGlite', { DATA_DIR: dataDir }, pglite.dataset)],
  ];
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (adminUrl) {
    const scratch = await scratchDatabase(checkedDatabaseUrl(adminUrl), 'kairos_restart');
    const postgres = await prepareStore({ databaseUrl: scratch.databaseUrl });
    results.push([
      'PostgreSQL',
      await rounds('PostgreSQL', { DATABASE_URL: scratch.databaseUrl }, postgres.dataset),
    ]);
    await scratch.drop();
  }
  for (const [label, times] of results) console.log(`${label}: /health after kill -9: ${summary(times)}`);
  console.log(`load at the end ${loadAverage().join(' ')}`);
  await abort(0);
}

main().catch((error) => {
  console.error(error);
  void abort(1);
});
