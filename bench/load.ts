import autocannon, { type AutocannonRequest } from 'autocannon';
import { cpuTimeMs, sampleMemory } from './children.js';

/**
 * One bounded autocannon run over loopback, summarised the way the report needs it. Latencies are
 * collected per response so p95 is exact (autocannon's own histogram has no p95).
 */
export interface LoadOptions {
  /** http://127.0.0.1:<port> — nothing else is ever targeted. */
  origin: string;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration?: number;
  amount?: number;
  /** A body per request (distinct bodies for POST /bookings); taken in order, never reused. */
  bodies?: () => string | undefined;
  /** A path per request (overrides `path` after the first); taken in order. */
  paths?: () => string;
  /** The server's pid: its CPU time per request is measured too. */
  serverPid?: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  statusCounts: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Server CPU (user + system) per answered request, ms; undefined without a pid. */
  cpuMsPerRequest?: number;
  /** Highest resident set of the server seen during the run (sampled), kB. */
  maxRssKb?: number;
}

export function assertLoopback(origin: string): void {
  const url = new URL(origin);
  if (url.hostname !== '127.0.0.1') throw new Error(`the bench only targets 127.0.0.1, not ${origin}`);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  assertLoopback(options.origin);
  const latencies: number[] = [];
  const statusCounts: Record<string, number> = {};
  const request: AutocannonRequest = {
    method: options.method ?? 'GET',
    path: options.path,
    headers: { ...options.headers, ...(options.bodies ? { 'content-type': 'application/json' } : {}) },
  };
  if (options.bodies || options.paths) {
    const { bodies, paths } = options;
    request.setupRequest = (req) => ({
      ...req,
      ...(bodies ? { body: bodies() } : {}),
      ...(paths ? { path: paths() } : {}),
    });
  }
  const cpuBefore = options.serverPid === undefined ? undefined : cpuTimeMs(options.serverPid);
  const memory = options.serverPid === undefined ? undefined : sampleMemory(options.serverPid, 200);
  const started = performance.now();
  const result = await new Promise<LoadResult>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.origin,
        connections: options.connections,
        ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.duration ?? 5 }),
        timeout: 30,
        requests: [request],
      },
      (error, raw) => {
        if (error) reject(error);
        else resolve(summarise(raw.errors, raw.timeouts));
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      latencies.push(responseTime);
      statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    });
  });
  return result;

  function summarise(errors: number, timeouts: number): LoadResult {
    const seconds = (performance.now() - started) / 1000;
    const sorted = [...latencies].sort((a, b) => a - b);
    const non2xx = Object.entries(statusCounts)
      .filter(([code]) => !code.startsWith('2'))
      .reduce((sum, [, count]) => sum + count, 0);
    const round = (n: number) => Math.round(n * 10) / 10;
    const cpuAfter = options.serverPid === undefined ? undefined : cpuTimeMs(options.serverPid);
    const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    return {
      maxRssKb: memory?.stop().maxRssKb,
      cpuMsPerRequest:
        cpuMs === undefined || latencies.length === 0
          ? undefined
          : Math.round((cpuMs / latencies.length) * 100) / 100,
      requests: latencies.length,
      seconds: round(seconds),
      rps: round(latencies.length / seconds),
      p50: round(percentile(sorted, 50)),
      p95: round(percentile(sorted, 95)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted.at(-1) ?? Number.NaN),
      statusCounts,
      non2xx,
      errors,
      timeouts,
    };
  }
}

/** Sequential requests (one at a time): the unloaded latency of an endpoint, as a median. */
export async function sequentialMedian(
  origin: string,
  path: string | (() => string),
  headers: Record<string, string>,
  count: number,
  /** Runs before each request, untimed (e.g. a write, so nothing cached can serve it). */
  before?: () => Promise<void>,
): Promise<{ median: number; p95: number; statuses: Record<string, number> }> {
  assertLoopback(origin);
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    if (before) await before();
    const started = performance.now();
    const response = await fetch(`${origin}${typeof path === 'string' ? path : path()}`, { headers });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  }
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { median: round(percentile(times, 50)), p95: round(percentile(times, 95)), statuses };
}
