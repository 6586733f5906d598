/**
 * `BENCH_ONLY=citus npm run bench`: creates and 31-day time-slots per second on a Citus cluster
 * (a coordinator and two workers on this machine, set up as docs/operations/scale-out.md says:
 * db migrate, db distribute) against one plain PostgreSQL on the same machine, in one run, with
 * the CPU each request costs: the API process's, and the whole machine's (the databases' too),
 * from /proc/stat. Prints the figures; docs/performance.md records them by hand.
 *
 * Environment: BENCH_DATABASE_URL (the plain PostgreSQL, as for the other benches) and
 * CITUS_CLUSTER (default ../shared/tools/citus/cluster.sh).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { startChild } from './children.js';
import type { BenchDataset } from './dataset.js';
import { DIST_SRC, ROOT, serverNodeFlags } from './dist.js';
import { type LoadResult, runLoad } from './load.js';
import { createBody } from './pgbench.js';
import { slotPaths } from './scenarios.js';
import { API_LINE, childEnv, prepareStore, scratchDatabase } from './stores.js';

const run = promisify(execFile);
const CITUS_DB = 'bench_citus';
const SECONDS = 10;
const CONNECTIONS = 16;

interface StoreFigures {
  store: string;
  slots31: Measured;
  creates: Measured;
}
interface Measured extends LoadResult {
  machineCpuMsPerRequest: number;
}

export async function runCitusBench(adminUrl: URL, log: (line: string) => void): Promise<StoreFigures[]> {
  const cluster = path.resolve(ROOT, process.env.CITUS_CLUSTER ?? '../shared/tools/citus/cluster.sh');
  const env = { ...process.env, CITUS_DB };
  await run(cluster, ['start'], { env }).catch(() => undefined);
  await run(cluster, ['reset'], { env });
  const citusUrl = (await run(cluster, ['url'], { env })).stdout.trim();
  const cli = (args: string[]) =>
    run(process.execPath, [path.join(DIST_SRC, 'cli', 'main.js'), ...args], {
      env: { ...process.env, DATABASE_URL: citusUrl },
    });
  await cli(['db', 'migrate']);
  await cli(['db', 'distribute']);
  const plain = await scratchDatabase(adminUrl, 'bench_plain');
  try {
    const results: StoreFigures[] = [];
    for (const [store, databaseUrl] of [
      ['PostgreSQL', plain.databaseUrl],
      ['Citus (coordinator + 2 workers)', citusUrl],
    ] as const) {
      log(`${store}: seeding`);
      const { dataset } = await prepareStore({ databaseUrl });
      const workers = databaseUrl === citusUrl ? await watchWorkerConnections(citusUrl) : undefined;
      results.push({ store, ...(await measure(databaseUrl, dataset, log)) });
      if (workers) log(`  connections on each worker during the loads, at most: ${await workers.stop()}`);
    }
    return results;
  } finally {
    await plain.drop();
    await run(cluster, ['stop'], { env }).catch(() => undefined);
  }
}

async function measure(databaseUrl: string, dataset: BenchDataset, log: (line: string) => void) {
  const server = await startChild(
    [...serverNodeFlags(), path.join(DIST_SRC, 'main.js')],
    // Without a bus every cached answer reads its version row: the same on both stores.
    childEnv({ DATABASE_URL: databaseUrl, WORKER: 'off', INVALIDATION_BUS: 'off' }),
    API_LINE,
  );
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    const headers = { authorization: `Bearer ${dataset.apiKey}`, workspace: dataset.slug };
    const { distinctSlotsPath } = slotPaths(dataset);
    const slots = distinctSlotsPath(31);
    const slotOptions = { origin, path: slots(), paths: slots, headers, connections: CONNECTIONS };
    await runLoad({ ...slotOptions, duration: 2 });
    const slots31 = await withMachineCpu(() =>
      runLoad({ ...slotOptions, duration: SECONDS, serverPid: server.pid }),
    );
    log(`  GET time-slots 31 days (distinct): ${figures(slots31)}`);
    let next = 0;
    const body = () => {
      const slot = dataset.freeSlots[next];
      if (!slot) throw new Error('the data set ran out of free slots');
      return JSON.stringify(createBody(dataset, slot, `+49151${String(next++).padStart(8, '0')}`));
    };
    const createOptions = { origin, path: '/api/public/v2/bookings', method: 'POST' as const, headers };
    await runLoad({ ...createOptions, connections: 4, duration: 2, bodies: body });
    const creates = await withMachineCpu(() =>
      runLoad({
        ...createOptions,
        connections: CONNECTIONS,
        duration: SECONDS,
        bodies: body,
        serverPid: server.pid,
      }),
    );
    log(`  POST /bookings (distinct slots): ${figures(creates)}`);
    return { slots31, creates };
  } finally {
    await server.stop();
  }
}

/**
 * Samples, every 100 ms, how many sessions each worker holds in the bench's database (the
 * coordinator's connections on behalf of the API process); stop() answers the most seen, per
 * worker.
 */
async function watchWorkerConnections(citusUrl: string) {
  const coordinator = new pg.Client({ connectionString: citusUrl });
  await coordinator.connect();
  const nodes = (
    await coordinator.query<{ nodename: string; nodeport: number }>(
      'SELECT nodename, nodeport FROM pg_dist_node WHERE groupid > 0 ORDER BY nodeport',
    )
  ).rows;
  await coordinator.end();
  const clients = await Promise.all(
    nodes.map(async (node) => {
      const url = new URL(citusUrl);
      url.hostname = node.nodename;
      url.port = String(node.nodeport);
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      return client;
    }),
  );
  const most = nodes.map(() => 0);
  let stopped = false;
  const sampling = (async () => {
    while (!stopped) {
      for (const [i, client] of clients.entries()) {
        const { rows } = await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        );
        most[i] = Math.max(most[i]!, rows[0]!.n);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await sampling;
      await Promise.all(clients.map((client) => client.end()));
      return nodes.map((node, i) => `${node.nodeport}: ${most[i]}`).join(', ');
    },
  };
}

function figures(result: Measured): string {
  return (
    `${result.rps} req/s, p95 ${result.p95} ms, statuses ${JSON.stringify(result.statusCounts)}, ` +
    `CPU per request: API ${result.cpuMsPerRequest} ms, machine ${result.machineCpuMsPerRequest} ms`
  );
}

/** The machine's busy CPU time (all cores, every process) while `load` runs, per request. */
async function withMachineCpu(load: () => Promise<LoadResult>): Promise<Measured> {
  const before = busyMs();
  const result = await load();
  const spent = busyMs() - before;
  return {
    ...result,
    machineCpuMsPerRequest: Math.round((spent / Math.max(1, result.requests)) * 100) / 100,
  };
}

/** user + nice + system + irq + softirq of /proc/stat's cpu line, in ms (100 ticks a second). */
function busyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq] = fields as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return (user + nice + system + irq + softirq) * 10;
}
