/**
 * `npm run bench:memory`: the embedded store's memory under steady load. The built server runs as
 * `npm start` runs it (same V8 flags, worker on, a fresh DATA_DIR with the bench data set), and a
 * fixed number of clients on loopback book a free slot, read that day's week of time-slots (a
 * different range each time) and cancel the booking again, for a bounded time. Every 10 s the
 * server's resident set (/proc), V8 heap and external memory (its /metrics on METRICS_PORT) are
 * sampled; the table shows them per minute beside throughput and p95. The figure to watch is RSS
 * growth over the last minutes: it must level off while p95 stays flat (docs/performance.md).
 *
 * Environment: SOAK_MINUTES (default 5), SOAK_CLIENTS (default 8), BENCH_DIST (another build),
 * SOAK_NODE_FLAGS (more flags for the server, e.g. `--heapsnapshot-signal=SIGUSR2` to take heap
 * snapshots with `kill -USR2 <pid>` while it runs; they land in the server's working directory),
 * SOAK_KEEP_DIR=1 (keep the data folder, to look into the store afterwards).
 * Only 127.0.0.1 is ever contacted; every child and the temp folder go when it ends.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { abort, memoryOf, registerCleanup, startChild } from './children.js';
import type { FreeSlot } from './dataset.js';
import { DIST_SRC, serverNodeFlags } from './dist.js';
import { assertLoopback, percentile } from './load.js';
import { loadAverage, machineInfo } from './machine.js';
import { createBody } from './pgbench.js';
import { API_LINE, childEnv, prepareStore } from './stores.js';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 5);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 8);
const SAMPLE_MS = 10_000;
const PREFIX = '/api/public/v2';

interface Sample {
  atS: number;
  rssMb: number;
  /** Resident parts: PGlite's WebAssembly memory, malloc's main heap, other anonymous memory. */
  wasmMb: number;
  mallocMb: number;
  otherMb: number;
  heapMb: number;
  heapTotalMb: number;
  externalMb: number;
}

/**
 * Where the resident memory is, from /proc/<pid>/smaps: the largest anonymous mapping is PGlite's
 * WebAssembly memory (the embedded PostgreSQL's whole address space, ~190 MB; nothing else in the
 * process is one mapping that size), `[heap]` is malloc's main arena (native allocations, among
 * them ArrayBuffer contents), and the rest of the anonymous memory is the V8 heap, JIT code and
 * other threads' malloc arenas. Files (the node binary, shared libraries) are left out.
 */
function memoryParts(pid: number): { wasmMb: number; mallocMb: number; otherMb: number } {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return { wasmMb: Number.NaN, mallocMb: Number.NaN, otherMb: Number.NaN };
  }
  const anonymous: number[] = [];
  let malloc = 0;
  let kind: 'anon' | 'heap' | 'other' = 'other';
  for (const line of text.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1] ?? '';
      kind = name === '' ? 'anon' : name === '[heap]' ? 'heap' : 'other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (!rss) continue;
    if (kind === 'anon') anonymous.push(Number(rss[1]));
    else if (kind === 'heap') malloc += Number(rss[1]);
  }
  const largest = Math.max(0, ...anonymous);
  const other = anonymous.reduce((sum, kb) => sum + kb, 0) - largest;
  return { wasmMb: mb(largest * 1024), mallocMb: mb(malloc * 1024), otherMb: mb(other * 1024) };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** V8 heap used and external memory of the server, from its own metrics. */
async function heapOf(
  metricsOrigin: string,
): Promise<{ heapMb: number; heapTotalMb: number; externalMb: number }> {
  const text = await (await fetch(`${metricsOrigin}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    heapMb: mb(value('kairos_nodejs_heap_size_used_bytes')),
    heapTotalMb: mb(value('kairos_nodejs_heap_size_total_bytes')),
    externalMb: mb(value('kairos_nodejs_external_memory_bytes')),
  };
}

async function main(): Promise<void> {
  const machine = machineInfo();
  console.log(
    `memory soak: ${MINUTES} min, ${CLIENTS} clients; ${machine.cpus} CPUs (${machine.cpuModel}), ` +
      `Node ${machine.node}, load ${machine.loadAtStart.join(' ')}, ${new Date().toISOString()}`,
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-memory-soak-'));
  const unregister = registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const dataDir = path.join(dir, 'data');
  const { dataset } = await prepareStore({ dataDir });
  const metricsPort = String(20_000 + (process.pid % 20_000));
  const server = await startChild(
    [
      ...serverNodeFlags(),
      ...(process.env.SOAK_NODE_FLAGS ?? '').split(' ').filter(Boolean),
      path.join(DIST_SRC, 'main.js'),
    ],
    childEnv({ DATA_DIR: dataDir, WORKER: 'on', METRICS_PORT: metricsPort }),
    API_LINE,
  );
  const origin = `http://127.0.0.1:${server.port}`;
  const metricsOrigin = `http://127.0.0.1:${metricsPort}`;
  assertLoopback(origin);
  console.log(`server pid ${server.pid}, ${origin}, node ${serverNodeFlags().join(' ')}, dist ${DIST_SRC}`);

  const headers = {
    authorization: `Bearer ${dataset.apiKey}`,
    workspace: dataset.slug,
    'content-type': 'application/json',
  };
  const slots: FreeSlot[] = [...dataset.freeSlots];
  const latencies: { atS: number; ms: number }[] = [];
  let errors = 0;
  const firstErrors: string[] = [];
  const started = performance.now();
  const endAt = started + MINUTES * 60_000;
  const timed = async (method: string, url: string, body?: string) => {
    const t0 = performance.now();
    let status = 0;
    let text = '';
    try {
      const response = await fetch(`${origin}${PREFIX}${url}`, {
        method,
        headers: method === 'GET' ? headers : { ...headers, 'idempotency-key': randomUUID() },
        ...(body === undefined ? {} : { body }),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      text = String((error as Error).cause ?? error);
    }
    latencies.push({ atS: (t0 - started) / 1000, ms: performance.now() - t0 });
    if (status < 200 || status > 299) {
      errors += 1;
      if (firstErrors.length < 3) firstErrors.push(`${method} ${url}: ${status} ${text.slice(0, 200)}`);
    }
    return { status, text };
  };
  let phone = 0;
  const serverUp = () => server.child.exitCode === null && server.child.signalCode === null;
  const client = async () => {
    while (performance.now() < endAt && serverUp()) {
      const slot = slots.shift();
      if (!slot) throw new Error('ran out of free slots');
      const body = createBody(dataset, slot, `+49152${String(phone++ % 100_000).padStart(8, '0')}`);
      const created = await timed('POST', '/bookings', JSON.stringify(body));
      const day = slot.start.slice(0, 10);
      const end = new Date(Date.parse(`${day}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
      await timed(
        'GET',
        `/locations/${dataset.locationA}/time-slots?service_uuid=${dataset.probeServiceId}&range_start=${day}&range_end=${end}`,
      );
      if (created.status === 201) {
        const uuid = (JSON.parse(created.text) as { data: { uuid: string } }).data.uuid;
        await timed('PUT', `/bookings/${uuid}/status/cancel`, '{}');
      }
      slots.push(slot);
    }
  };

  const samples: Sample[] = [];
  const sample = async () => {
    const memory = memoryOf(server.pid);
    if (!memory) return;
    const heap = await heapOf(metricsOrigin).catch(() => ({
      heapMb: Number.NaN,
      heapTotalMb: Number.NaN,
      externalMb: Number.NaN,
    }));
    samples.push({
      atS: (performance.now() - started) / 1000,
      rssMb: mb(memory.rssKb * 1024),
      ...memoryParts(server.pid),
      ...heap,
    });
  };
  await sample();
  const sampler = setInterval(() => void sample(), SAMPLE_MS);
  try {
    await Promise.all(Array.from({ length: CLIENTS }, client));
  } finally {
    clearInterval(sampler);
  }
  await sample();
  const died = !serverUp();
  await server.stop();
  if (died) console.log(`the server died during the run:\n${server.output().slice(-3000)}`);
  unregister();
  if (process.env.SOAK_KEEP_DIR === '1') console.log(`data folder kept: ${dataDir}`);
  else rmSync(dir, { recursive: true, force: true });

  console.log(
    '\n| minute | requests | p95 ms | RSS MB | WebAssembly MB | malloc heap MB | other anonymous MB | V8 heap used / total MB | external MB |',
  );
  console.log('|---|--:|--:|--:|--:|--:|--:|--:|--:|');
  for (let minute = 1; minute <= MINUTES; minute++) {
    const inMinute = latencies
      .filter((l) => l.atS >= (minute - 1) * 60 && l.atS < minute * 60)
      .map((l) => l.ms)
      .sort((a, b) => a - b);
    const last = samples.filter((s) => s.atS <= minute * 60 + 1).at(-1);
    console.log(
      `| ${minute} | ${inMinute.length} | ${Math.round(percentile(inMinute, 95))} | ${last?.rssMb} | ${last?.wasmMb} | ${last?.mallocMb} | ${last?.otherMb} | ${last?.heapMb} / ${last?.heapTotalMb} | ${last?.externalMb} |`,
    );
  }
  const at = (seconds: number) => samples.filter((s) => s.atS <= seconds + 1).at(-1);
  const first = at(60);
  const lastSample = samples.at(-1);
  const halfway = at((MINUTES * 60) / 2);
  console.log(
    `\nRSS at start ${samples[0]?.rssMb} MB, after minute 1 ${first?.rssMb} MB, halfway ${halfway?.rssMb} MB, ` +
      `end ${lastSample?.rssMb} MB: +${Math.round(((lastSample?.rssMb ?? 0) - (first?.rssMb ?? 0)) * 10) / 10} MB ` +
      `after the first minute, +${Math.round(((lastSample?.rssMb ?? 0) - (halfway?.rssMb ?? 0)) * 10) / 10} MB in the second half. ` +
      `${latencies.length} requests, ${errors} errors; load at end ${loadAverage().join(' ')}.`,
  );
  for (const line of firstErrors) console.log(`  error: ${line}`);
  console.log(
    `samples (s: RSS / WebAssembly / malloc / other anonymous MB): ${samples
      .map((s) => `${Math.round(s.atS)}: ${s.rssMb}/${s.wasmMb}/${s.mallocMb}/${s.otherMb}`)
      .join(', ')}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  void abort(1);
});
