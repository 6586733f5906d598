import { DateTime } from 'luxon';
import { type BenchDataset, ZONE_A } from './dataset.js';
import { type LoadResult, runLoad, sequentialMedian } from './load.js';
import { createBody } from './pgbench.js';

/** How long each measured run lasts; BENCH_QUICK=1 shortens everything for harness debugging. */
export interface Timing {
  warmupSeconds: number;
  getSeconds: number;
  postSeconds: number;
  sequentialCount: number;
}

export const FULL_TIMING: Timing = { warmupSeconds: 2, getSeconds: 6, postSeconds: 8, sequentialCount: 20 };
export const QUICK_TIMING: Timing = { warmupSeconds: 1, getSeconds: 2, postSeconds: 3, sequentialCount: 5 };

export type ScenarioKey =
  | 'ping'
  | 'locations'
  | 'slots7'
  | 'slots31'
  | 'slots90'
  | 'slots31Distinct'
  | 'slots90Distinct'
  | 'bookingsList'
  | 'createDistinct'
  | 'createOneSlot';

export interface ScenarioResult extends LoadResult {
  key: ScenarioKey;
  name: string;
  connections: number;
  /** Non-2xx answers the scenario expects (409s of the one-slot race). */
  expectedNon2xx: number;
  unexpectedNon2xx: number;
  /** 5xx answers (never acceptable). */
  serverErrors: number;
}

type Median = { median: number; p95: number };

/** One request at a time: the same query repeated, and a different query each time. */
export interface SequentialMedians {
  count: number;
  slots31: Median;
  slots90: Median;
  slots31Distinct: Median;
  slots90Distinct: Median;
  /** Distinct queries, each after an API write: nothing cached or shared can serve them. */
  slots31Cold: Median;
  slots90Cold: Median;
}

export interface ScenarioRun {
  scenarios: ScenarioResult[];
  sequential: SequentialMedians;
  /** The one-slot race: how many creates won and how many were refused with 409. */
  race: { created: number; conflicts: number; other: number };
}

const GET_CONNECTIONS = 16;
const CREATE_CONNECTIONS = 64;
const RACE_REQUESTS = 100;

function withExpectations(
  key: ScenarioKey,
  name: string,
  connections: number,
  result: LoadResult,
  expectedStatus: (status: string) => boolean,
): ScenarioResult {
  let expectedNon2xx = 0;
  let unexpectedNon2xx = 0;
  let serverErrors = 0;
  for (const [status, count] of Object.entries(result.statusCounts)) {
    if (status.startsWith('5')) serverErrors += count;
    if (status.startsWith('2')) continue;
    if (expectedStatus(status)) expectedNon2xx += count;
    else unexpectedNon2xx += count;
  }
  return { ...result, key, name, connections, expectedNon2xx, unexpectedNon2xx, serverErrors };
}

/** Drives the running server through issue 6's scenarios, in an order that keeps them independent. */
/**
 * Time-slot paths for the bench's scenarios. An answer cache keyed by the query would serve every
 * repeat of one query from memory. The "distinct" paths are a different query each time — start
 * shifted 0-4 days, answered in one of every IANA zone (same service, all staffers) — rotating
 * through over 2,000, so the answer cache never serves them: each answer is sliced from the
 * engine evaluation the queries of one minute and store version share (docs/decisions/0005), and
 * written out afresh. The "cold" one-at-a-time figures follow an API write each, so nothing at
 * all is reused.
 */
export function slotPaths(dataset: BenchDataset) {
  const firstDate = DateTime.fromISO(dataset.firstDate, { zone: ZONE_A });
  const slotsPath = (days: number, shift = 0, zone?: string) =>
    `/api/public/v2/locations/${dataset.locationA}/time-slots?service_uuid=${dataset.probeServiceId}` +
    `&range_start=${firstDate.plus({ days: shift }).toISODate()}` +
    `&range_end=${firstDate.plus({ days: shift + days - 1 }).toISODate()}` +
    (zone ? `&timezone=${encodeURIComponent(zone)}` : '');
  const zones = Intl.supportedValuesOf('timeZone');
  let distinctIndex = 0;
  const distinctSlotsPath = (days: number) => () => {
    const i = distinctIndex++;
    return slotsPath(days, i % 5, zones[Math.floor(i / 5) % zones.length]);
  };
  return { slotsPath, distinctSlotsPath };
}

export async function runScenarios(
  origin: string,
  serverPid: number,
  dataset: BenchDataset,
  timing: Timing,
  log: (line: string) => void,
): Promise<ScenarioRun> {
  const prefix = '/api/public/v2';
  const headers = { authorization: `Bearer ${dataset.apiKey}`, workspace: dataset.slug };
  const firstDate = DateTime.fromISO(dataset.firstDate, { zone: ZONE_A });
  const { slotsPath, distinctSlotsPath } = slotPaths(dataset);
  const bookingsPath =
    `${prefix}/bookings?location_uuid=${dataset.locationA}&staffer_uuid=${dataset.stafferIds[3]}` +
    `&status_type=new&reserved_on_from=${encodeURIComponent(firstDate.toUTC().toISO()!)}` +
    `&reserved_on_to=${encodeURIComponent(firstDate.plus({ days: 14 }).toUTC().toISO()!)}&per_page=15`;

  // Before loading anything: every GET must answer 200 with something in it, or the figures
  // would measure errors or empty answers.
  const probe = async (
    path: string,
    filled: (body: { data?: unknown[]; dates?: { slots: unknown[] }[] }) => boolean,
  ) => {
    const response = await fetch(`${origin}${path}`, { headers });
    const text = await response.text();
    if (response.status !== 200 || !filled(JSON.parse(text)))
      throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  };
  await probe(`${prefix}/ping`, () => true);
  await probe(`${prefix}/locations`, (body) => body.data?.length === 2);
  await probe(slotsPath(7), (body) => (body.dates ?? []).some((day) => day.slots.length > 0));
  await probe(bookingsPath, (body) => body.data?.length === 15);

  // A run's last requests may still be in the server when autocannon returns (it stops sending,
  // the server finishes them). One authenticated request queues behind them in the store, so
  // waiting for it keeps each measured run from paying for the previous one.
  const drain = async () => {
    await (await fetch(`${origin}${prefix}/ping`, { headers })).arrayBuffer();
  };

  const scenarios: ScenarioResult[] = [];
  const gets: [ScenarioKey, string, string | (() => string)][] = [
    ['ping', 'GET /ping', `${prefix}/ping`],
    ['locations', 'GET /locations', `${prefix}/locations`],
    ['slots7', 'GET time-slots 7 days', slotsPath(7)],
    ['slots31', 'GET time-slots 31 days', slotsPath(31)],
    ['slots90', 'GET time-slots 90 days', slotsPath(90)],
    ['slots31Distinct', 'GET time-slots 31 days, distinct queries', distinctSlotsPath(31)],
    ['slots90Distinct', 'GET time-slots 90 days, distinct queries', distinctSlotsPath(90)],
    ['bookingsList', 'GET /bookings filtered, 1 page', bookingsPath],
  ];
  for (const [key, name, path] of gets) {
    const options = {
      origin,
      ...(typeof path === 'string' ? { path } : { path: path(), paths: path }),
      headers,
      connections: GET_CONNECTIONS,
    };
    await runLoad({ ...options, duration: timing.warmupSeconds });
    await drain();
    const result = await runLoad({ ...options, duration: timing.getSeconds, serverPid });
    await drain();
    scenarios.push(withExpectations(key, name, GET_CONNECTIONS, result, () => false));
    log(`  ${name}: ${result.rps} req/s, p95 ${result.p95} ms, non-2xx ${result.non2xx}`);
  }

  await drain();
  // A write that changes nothing but, like every successful write, bumps the store version.
  const write = async () => {
    const response = await fetch(`${origin}${prefix}/workspace`, {
      method: 'PATCH',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`PATCH /workspace answered ${response.status}`);
  };
  const sequential: SequentialMedians = {
    count: timing.sequentialCount,
    slots31: await sequentialMedian(origin, slotsPath(31), headers, timing.sequentialCount),
    slots90: await sequentialMedian(origin, slotsPath(90), headers, timing.sequentialCount),
    slots31Distinct: await sequentialMedian(origin, distinctSlotsPath(31), headers, timing.sequentialCount),
    slots90Distinct: await sequentialMedian(origin, distinctSlotsPath(90), headers, timing.sequentialCount),
    slots31Cold: await sequentialMedian(
      origin,
      distinctSlotsPath(31),
      headers,
      timing.sequentialCount,
      write,
    ),
    slots90Cold: await sequentialMedian(
      origin,
      distinctSlotsPath(90),
      headers,
      timing.sequentialCount,
      write,
    ),
  };
  log(
    `  time-slots one at a time: 31 days median ${sequential.slots31.median} ms (distinct ` +
      `${sequential.slots31Distinct.median} ms), 90 days ${sequential.slots90.median} ms (distinct ` +
      `${sequential.slots90Distinct.median} ms); cold 31 days ${sequential.slots31Cold.median} ms, ` +
      `90 days ${sequential.slots90Cold.median} ms`,
  );

  // Creates: every request books a different free (staffer, start) and a new customer.
  let nextSlot = 0;
  let nextPhone = 0;
  const takeSlot = () => {
    const slot = dataset.freeSlots[nextSlot++];
    if (!slot) throw new Error('the data set ran out of free slots; raise BOOKED_DAYS');
    return slot;
  };
  const distinctBody = () =>
    JSON.stringify(createBody(dataset, takeSlot(), `+49151${String(nextPhone++).padStart(8, '0')}`));
  const createOptions = { origin, path: `${prefix}/bookings`, method: 'POST' as const, headers };
  await runLoad({ ...createOptions, connections: 8, duration: timing.warmupSeconds, bodies: distinctBody });
  await drain();
  const creates = await runLoad({
    ...createOptions,
    connections: CREATE_CONNECTIONS,
    duration: timing.postSeconds,
    bodies: distinctBody,
    serverPid,
  });
  scenarios.push(
    withExpectations(
      'createDistinct',
      'POST /bookings, distinct free slots',
      CREATE_CONNECTIONS,
      creates,
      () => false,
    ),
  );
  log(
    `  POST /bookings distinct: ${creates.rps} req/s, p95 ${creates.p95} ms, statuses ${JSON.stringify(creates.statusCounts)}`,
  );

  await drain();
  // The race: 100 identical creates of one free slot at once; exactly one may win.
  const raceBody = JSON.stringify(createBody(dataset, takeSlot(), '+4915199999999'));
  const race = await runLoad({
    ...createOptions,
    connections: RACE_REQUESTS,
    amount: RACE_REQUESTS,
    bodies: () => raceBody,
    serverPid,
  });
  scenarios.push(
    withExpectations(
      'createOneSlot',
      '100 concurrent POST /bookings, one slot',
      RACE_REQUESTS,
      race,
      (s) => s === '409',
    ),
  );
  const created = race.statusCounts['201'] ?? 0;
  const conflicts = race.statusCounts['409'] ?? 0;
  log(`  one-slot race: ${JSON.stringify(race.statusCounts)}`);
  dataset.freeSlots = dataset.freeSlots.slice(nextSlot);
  return { scenarios, sequential, race: { created, conflicts, other: race.requests - created - conflicts } };
}
