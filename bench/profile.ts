/**
 * `npm run bench:profile -- <scenario>`: one scenario of the bench against the built server on a
 * fresh PostgreSQL database, with the server under `node --cpu-prof`, then the functions that
 * used the most CPU (self time). The .cpuprofile is kept for Chrome DevTools / speedscope.
 *
 * Scenarios: slots31, slots90 (distinct queries, never cached), create (POST /bookings on
 * distinct free slots at 64 connections), locations (GET /locations at 16 connections). Needs BENCH_DATABASE_URL, as `npm run bench`.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChild } from './children.js';
import { DIST_SRC, serverNodeFlags } from './dist.js';
import { runLoad } from './load.js';
import { createBody } from './pgbench.js';
import { slotPaths } from './scenarios.js';
import { API_LINE, checkedDatabaseUrl, childEnv, prepareStore, scratchDatabase } from './stores.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Self time per function (ms), from the sample counts of a V8 .cpuprofile. */
function selfTimes(file: string): { name: string; ms: number }[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const where = frame.url
      ? `${frame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${frame.lineNumber + 1}`
      : '';
    const name = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

async function main() {
  const scenario = process.argv[2] ?? 'slots31';
  if (!process.env.BENCH_DATABASE_URL) throw new Error('set BENCH_DATABASE_URL');
  const adminUrl = checkedDatabaseUrl(process.env.BENCH_DATABASE_URL);
  const scratch = await scratchDatabase(adminUrl, 'bench_profile');
  const url = new URL(scratch.databaseUrl);
  const profileDir = mkdtempSync(path.join(os.tmpdir(), 'kairos-profile-'));
  try {
    const { dataset } = await prepareStore({ databaseUrl: url.toString() });
    const server = await startChild(
      [...serverNodeFlags(), '--cpu-prof', `--cpu-prof-dir=${profileDir}`, path.join(DIST_SRC, 'main.js')],
      childEnv({ DATABASE_URL: url.toString() }),
      API_LINE,
    );
    const origin = `http://127.0.0.1:${server.port}`;
    const prefix = '/api/public/v2';
    const headers = { authorization: `Bearer ${dataset.apiKey}`, workspace: dataset.slug };
    // The bench's own distinct time-slot queries (never an answer-cache hit).
    const slots = slotPaths(dataset).distinctSlotsPath;
    let slot = 0;
    const result =
      scenario === 'create'
        ? await runLoad({
            origin,
            path: `${prefix}/bookings`,
            method: 'POST',
            headers,
            connections: 64,
            duration: 8,
            bodies: () =>
              JSON.stringify(
                createBody(dataset, dataset.freeSlots[slot]!, `+49151${String(slot++).padStart(8, '0')}`),
              ),
            serverPid: server.pid,
          })
        : scenario === 'locations'
          ? await runLoad({
              origin,
              path: `${prefix}/locations`,
              headers,
              connections: 16,
              duration: 8,
              serverPid: server.pid,
            })
          : await runLoad({
              origin,
              path: slots(scenario === 'slots90' ? 90 : 31)(),
              paths: slots(scenario === 'slots90' ? 90 : 31),
              headers,
              connections: 16,
              duration: 8,
              serverPid: server.pid,
            });
    await server.stop();
    console.log(
      `${scenario}: ${result.rps} req/s, p95 ${result.p95} ms, ${result.cpuMsPerRequest} ms CPU/req, ` +
        `statuses ${JSON.stringify(result.statusCounts)}`,
    );
    const file = readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'))!;
    const times = selfTimes(path.join(profileDir, file));
    const total = times.reduce((sum, t) => sum + t.ms, 0);
    for (const t of times.slice(0, 40))
      console.log(
        `${t.ms.toFixed(0).padStart(7)} ms ${((100 * t.ms) / total).toFixed(1).padStart(5)}%  ${t.name}`,
      );
    console.log(`profile: ${path.join(profileDir, file)}`);
  } finally {
    await scratch.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
