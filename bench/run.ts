/**
 * `npm run bench` (issue 6): the real built server under load, on PGlite always and on
 * PostgreSQL when BENCH_DATABASE_URL is set (a fresh database is created there and dropped), with
 * the framework and database ceilings measured in the same run, then docs/performance.md.
 *
 * Environment:
 *   BENCH_DATABASE_URL  postgres://user@127.0.0.1:5432/db — a server on 127.0.0.1 and a database
 *                       to connect to for CREATE/DROP DATABASE bench_kairos_*
 *   BENCH_STORES        pglite,postgres (default: pglite, plus postgres when the URL is set)
 *   BENCH_QUICK=1       short runs, for working on the harness
 *   BENCH_WRITE=0       print only; leave docs/performance.md alone
 *   BENCH_DIST=<dir>    measure another build's dist/ (e.g. a copy built before a fix)
 *   BENCH_ONLY=many-processes  only issue 17.5's scenario (3 API processes + 2 workers vs 1)
 *   BENCH_ONLY=booking-page    only the booking page's service and slot steps (issue 14)
 *   BENCH_ONLY=mail     only creates with emails on vs off, workers sending to a local SMTP
 *                       server (issue 15); prints the figures, leaves docs/performance.md alone
 *   BENCH_ONLY=stores   only the engine, the framework ceiling and each store's scenarios
 *   BENCH_ONLY=payments only the pay step: a create collecting a deposit against a plain one
 *                       (issue 26); prints the figures
 *   BENCH_ONLY=calendar only the panel's week view at 20 staffers / 1,000 bookings (issue 13)
 *   BENCH_ONLY=calendar-sync  only a staffer's CalDAV calendar of 20,000 events: first and
 *                       incremental sync, 31-day time-slots with vs without it (issue 28); prints
 *   BENCH_ONLY=lists    only the lists at 1,000 rows (issue 18); BENCH_ONLY=soak only the soak;
 *                       prints the figures and leaves docs/performance.md alone
 *   BENCH_ONLY=resources  only the 31-day time-slots with 20 staffers, 10 rooms and 5,000
 *                       bookings, a service needing a room against one needing none (issue 29)
 *   BENCH_ONLY=citus    only creates and 31-day time-slots on a local Citus cluster against plain
 *                       PostgreSQL (needs BENCH_DATABASE_URL); prints the figures
 *   BENCH_ONLY=reports  only the six reports over a year of 100,000 bookings beside GET /locations
 *                       (issue 31), on PGlite and PostgreSQL with the URL; prints the figures
 *   BENCH_SOAK_MINUTES  length of the PGlite soak (default 10; 0 skips it; quick: 2)
 *
 * Exits non-zero only when something crashed; bars that are missed are reported, not fatal.
 */
import path from 'node:path';
import { runBookingPageBench } from './booking-page.js';
import { type CalendarResult, runCalendarBench } from './calendar.js';
import { runCalendarSyncBench } from './calendar-sync.js';
import { abort, isAborting } from './children.js';
import { runCitusBench } from './citus.js';
import { ROOT } from './dist.js';
import { type ListResult, runListsBench } from './lists.js';
import { loadAverage, machineInfo } from './machine.js';
import { runMailBenches } from './mail.js';
import { runManyProcesses } from './many-processes.js';
import { runPaymentsBench } from './payments.js';
import { type BenchReport, evaluateBars, renderResults, runLogLine, writePerformanceDoc } from './report.js';
import { type ReportBenchResult, runReportsBench } from './reports.js';
import { RESOURCES_RATIO_BAR, runResourcesBench } from './resources.js';
import { FULL_TIMING, QUICK_TIMING } from './scenarios.js';
import { runSlotsEngineBench } from './slots-engine.js';
import { runSoak, type SoakMinute, soakRatio } from './soak.js';
import {
  benchPglite,
  benchPostgres,
  checkedDatabaseUrl,
  measureFrameworkCeiling,
  type StoreResult,
} from './stores.js';

/** A hung run must still end (the 10-minute soak included); this is the hard stop. */
const WATCHDOG_MS = 35 * 60_000;

async function main(): Promise<number> {
  const started = performance.now();
  const watchdog = setTimeout(() => {
    console.error(`bench: still running after ${WATCHDOG_MS / 60_000} minutes; giving up`);
    void abort(2);
  }, WATCHDOG_MS);
  watchdog.unref();

  const quick = process.env.BENCH_QUICK === '1';
  const timing = quick ? QUICK_TIMING : FULL_TIMING;
  const databaseUrl = process.env.BENCH_DATABASE_URL
    ? checkedDatabaseUrl(process.env.BENCH_DATABASE_URL)
    : undefined;
  const stores = (process.env.BENCH_STORES ?? (databaseUrl ? 'pglite,postgres' : 'pglite'))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (stores.includes('postgres') && !databaseUrl)
    throw new Error('BENCH_STORES has postgres but BENCH_DATABASE_URL is not set');
  const log = (line: string) => console.log(line);
  const soakMinutes = Number(process.env.BENCH_SOAK_MINUTES ?? (quick ? 2 : 10));
  const only = process.env.BENCH_ONLY;
  if (only === 'booking-page') {
    clearTimeout(watchdog);
    await runBookingPageBench(log);
    return 0;
  }
  if (only === 'mail') {
    clearTimeout(watchdog);
    const machine = machineInfo();
    log(
      `bench: ${machine.cpus} CPUs, ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAtStart.join(' ')}`,
    );
    const results = await runMailBenches(log);
    return results.some((result) => result.distinctMessageIds !== result.accepted) ? 1 : 0;
  }
  if (only === 'payments') {
    clearTimeout(watchdog);
    const machine = machineInfo();
    log(
      `bench: ${machine.cpus} CPUs, ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAtStart.join(' ')}`,
    );
    await runPaymentsBench(log);
    return 0;
  }
  if (only === 'calendar') {
    clearTimeout(watchdog);
    await runCalendarBench(log);
    return 0;
  }
  if (only === 'calendar-sync') {
    clearTimeout(watchdog);
    const result = await runCalendarSyncBench(log);
    log(`  ${result.ratio <= 1.1 ? 'pass' : 'MISSED'}: time-slots ratio ${result.ratio.toFixed(2)}`);
    return 0;
  }
  if (only === 'resources') {
    clearTimeout(watchdog);
    const machine = machineInfo();
    log(
      `bench: ${machine.cpus} CPUs, ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAtStart.join(' ')}`,
    );
    const result = await runResourcesBench(log);
    log(
      `  ${result.ratio <= RESOURCES_RATIO_BAR ? 'pass' : 'MISSED'}: time-slots ratio ${result.ratio.toFixed(2)}`,
    );
    return 0;
  }
  if (only === 'citus') {
    clearTimeout(watchdog);
    if (!databaseUrl) throw new Error('BENCH_ONLY=citus compares with PostgreSQL: set BENCH_DATABASE_URL');
    const machine = machineInfo();
    log(
      `bench: ${machine.cpus} CPUs, ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAtStart.join(' ')}`,
    );
    await runCitusBench(databaseUrl, log);
    return 0;
  }
  if (only === 'reports') {
    clearTimeout(watchdog);
    await runReportsBench(log, {
      pglite: stores.includes('pglite'),
      adminUrl: stores.includes('postgres') ? databaseUrl : undefined,
    });
    return 0;
  }
  if (only === 'lists' || only === 'soak') {
    clearTimeout(watchdog);
    if (only === 'lists') await runListsBench(log);
    else {
      const curve = await runSoak(log, soakMinutes);
      for (const m of curve)
        log(`  minute ${m.minute}: ${m.requests} requests, p95 ${m.p95} ms, errors ${m.errors}`);
      log(`  last/second p95: ${soakRatio(curve) ?? '–'}x (bar ≤ 1.3x)`);
    }
    return 0;
  }

  const machine = machineInfo();
  log(
    `bench: ${machine.cpus} CPUs, ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAtStart.join(' ')}`,
  );

  if (process.env.BENCH_ONLY === 'many-processes') {
    if (!databaseUrl) throw new Error('BENCH_ONLY=many-processes needs BENCH_DATABASE_URL');
    return (await runManyProcesses(databaseUrl, timing, log)) ? 1 : 0;
  }

  log('slot engine micro-bench (issue 3)');
  const engine = runSlotsEngineBench();
  log(`  median ${engine.median_ms} ms, p95 ${engine.p95_ms} ms`);

  log('framework ceiling (bare Fastify)');
  const framework = await measureFrameworkCeiling(timing);
  log(`  ${framework.rps} req/s, p95 ${framework.p95} ms`);

  const results: StoreResult[] = [];
  const crashes: string[] = [];
  for (const store of stores) {
    try {
      if (store === 'pglite') results.push(await benchPglite(timing, log));
      else if (store === 'postgres') results.push(await benchPostgres(databaseUrl!, timing, log));
      else throw new Error(`unknown store "${store}" in BENCH_STORES`);
      for (const problem of results.at(-1)?.problems ?? []) crashes.push(`${store}: ${problem}`);
    } catch (error) {
      const message = `${store}: ${(error as Error).stack ?? error}`;
      console.error(`bench: ${message}`);
      crashes.push(message);
    }
  }

  // BENCH_ONLY=stores: the engine, the ceiling and the stores' scenarios, nothing after them.
  const full = only !== 'stores';
  if (full && databaseUrl && stores.includes('postgres')) {
    const crash = await runManyProcesses(databaseUrl, timing, log);
    if (crash) crashes.push(crash);
  }
  if (full)
    try {
      await runBookingPageBench(log);
    } catch (error) {
      const message = `booking page: ${(error as Error).stack ?? error}`;
      console.error(`bench: ${message}`);
      crashes.push(message);
    }
  if (full)
    try {
      await runMailBenches(log);
    } catch (error) {
      const message = `mail: ${(error as Error).stack ?? error}`;
      console.error(`bench: ${message}`);
      crashes.push(message);
    }
  let calendar: CalendarResult | undefined;
  if (full)
    try {
      calendar = await runCalendarBench(log);
    } catch (error) {
      const message = `calendar: ${(error as Error).stack ?? error}`;
      console.error(`bench: ${message}`);
      crashes.push(message);
    }
  if (full)
    try {
      await runCalendarSyncBench(log);
    } catch (error) {
      const message = `calendar sync: ${(error as Error).stack ?? error}`;
      console.error(`bench: ${message}`);
      crashes.push(message);
    }
  let lists: ListResult[] | undefined;
  let soak: SoakMinute[] | undefined;
  if (full)
    try {
      lists = await runListsBench(log);
      if (soakMinutes > 0) soak = await runSoak(log, soakMinutes);
    } catch (error) {
      const message = `lists/soak: ${(error as Error).stack ?? error}`;
      console.error(`bench: ${message}`);
      crashes.push(message);
    }

  let reports: ReportBenchResult[] | undefined;
  if (full)
    try {
      reports = await runReportsBench(log, {
        pglite: stores.includes('pglite'),
        adminUrl: stores.includes('postgres') ? databaseUrl : undefined,
      });
    } catch (error) {
      const message = `reports: ${(error as Error).stack ?? error}`;
      console.error(`bench: ${message}`);
      crashes.push(message);
    }

  // Interrupted: abort() is cleaning up and will exit; half a run is not written anywhere.
  if (isAborting()) return new Promise<number>(() => {});

  const report: BenchReport = {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    machine,
    loadAtEnd: loadAverage(),
    totalSeconds: (performance.now() - started) / 1000,
    quick,
    engine,
    framework,
    stores: results,
    ...(calendar ? { calendar } : {}),
    ...(lists ? { lists } : {}),
    ...(reports ? { reports } : {}),
    ...(soak ? { soak } : {}),
    crashes,
  };
  const bars = evaluateBars(report);
  const markdown = renderResults(report, bars);
  console.log(`\n${markdown}`);
  if (process.env.BENCH_WRITE !== '0') {
    const file = path.join(ROOT, 'docs', 'performance.md');
    writePerformanceDoc(file, markdown, runLogLine(report, bars));
    log(`written ${path.relative(process.cwd(), file)}`);
  }
  const missed = bars.filter((bar) => !bar.pass);
  log(
    missed.length === 0
      ? 'bench: every bar passed'
      : `bench: ${missed.length} bar(s) missed (reported, not fatal)`,
  );
  return crashes.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
