// The booking page under load (issue 14 point 9): requests/s of its service step and its slot
// step as a ratio to GET /locations in the same run, and the server's CPU per request.
// A fresh embedded store with the demo workspace; one server child; loopback only.
// Part of `npm run bench`; alone: `BENCH_ONLY=booking-page npm run bench`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { registerCleanup, startChild } from './children.js';
import { runLoad } from './load.js';
import { API_LINE, childEnv } from './stores.js';

export interface BookingPageResult {
  name: string;
  rps: number;
  /** requests/s as a ratio to GET /locations in the same run (bar: ≥ 0.5) */
  ratio: number;
  p95: number;
  cpuMsPerRequest: number | undefined;
  non2xx: number;
}

export async function runBookingPageBench(
  log: (line: string) => void,
  seconds = 5,
): Promise<BookingPageResult[]> {
  log('booking page: service and slot steps against GET /locations (issue 14)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-bench-page-'));
  registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startChild(
    ['dist/src/main.js'],
    childEnv({ DATA_DIR: path.join(dir, 'data'), WIDGET_REQUESTS_PER_MINUTE: '1000000' }),
    API_LINE,
  );
  try {
    const origin = `http://127.0.0.1:${server.port}`;
    const key = /API key:\s+(secret_\S+)/.exec(server.output())?.[1];
    const slug = /Workspace:\s+(\S+)/.exec(server.output())?.[1];
    if (!key || !slug) throw new Error(`no demo key in the server's output:\n${server.output()}`);
    const headers = { authorization: `Bearer ${key}`, workspace: slug };
    const hrefs = async (url: string) =>
      [...(await (await fetch(origin + url)).text()).matchAll(/class="choice" href="([^"]+)"/g)].map((m) =>
        m[1]!.replaceAll('&amp;', '&'),
      );
    const serviceStep = (await hrefs(`/book/${slug}`))[0]!; // the first location's services
    let slotStep = (await hrefs(serviceStep))[0]!; // its first service
    const staffers = await hrefs(slotStep);
    if (staffers.length > 0) slotStep = staffers[0]!; // a staffer step: its first choice
    const scenarios = [
      { name: 'GET /locations (API)', path: '/api/public/v2/locations', headers },
      { name: 'booking page: service step', path: serviceStep },
      { name: 'booking page: slot step', path: slotStep },
    ];
    const results = [];
    for (const scenario of scenarios) {
      await runLoad({ origin, ...scenario, connections: 16, duration: 1 }); // warm-up
      results.push({
        ...scenario,
        ...(await runLoad({
          origin,
          ...scenario,
          connections: 16,
          duration: seconds,
          serverPid: server.pid,
        })),
      });
    }
    const base = results[0]!.rps;
    for (const r of results) {
      log(
        `  ${r.name.padEnd(30)} ${r.rps.toFixed(0).padStart(6)} req/s  ${(r.rps / base).toFixed(2)}x locations  ` +
          `p95 ${r.p95.toFixed(1)} ms  cpu ${r.cpuMsPerRequest?.toFixed(2) ?? '?'} ms/req  non-2xx ${r.non2xx}`,
      );
    }
    return results.map((r) => ({
      name: r.name,
      rps: r.rps,
      ratio: r.rps / base,
      p95: r.p95,
      cpuMsPerRequest: r.cpuMsPerRequest,
      non2xx: r.non2xx,
    }));
  } finally {
    await server.stop();
  }
}
