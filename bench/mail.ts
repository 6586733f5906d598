// Emails under load (issue 15 point 7): POST /bookings throughput with emails on, while the
// server's own workers send them to a local SMTP server, against the same with emails off, in one
// run on one server; and whether the mail queue drains afterwards.
// Part of `npm run bench`; alone: `BENCH_ONLY=mail npm run bench`.
//
// "Off" books without a customer email (nothing is queued); "on" books with one, so each create
// makes a confirmation (sent at once) and a 24-hour reminder (due later), queued when its outbox
// event is dispatched (docs/decisions/0011-emails-from-the-outbox.md).
// Phases run off, on, on, off, on, off, off, on (ABBA BAAB), so that a drift of the machine or of
// the store over the run (caches warming, tables growing) weighs on both alike, and each side's
// mean is of four phases (one phase swings by up to 10 % from the next on PostgreSQL).
// On the embedded store always; with BENCH_DATABASE_URL on a fresh PostgreSQL database too.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { registerCleanup, startChild } from './children.js';
import { DIST_SRC, ROOT, serverNodeFlags } from './dist.js';
import { runLoad } from './load.js';
import { createBody } from './pgbench.js';
import { API_LINE, checkedDatabaseUrl, childEnv, prepareStore, scratchDatabase } from './stores.js';

const CONNECTIONS = 16;

export interface MailBenchResult {
  store: 'pglite' | 'postgres';
  offRps: number;
  onRps: number;
  /** on / off (bar: ≥ 0.9). */
  ratio: number;
  onP95: number;
  offP95: number;
  /** Creates with an email, warm-up included (each queued one confirmation to send now). */
  queued: number;
  /** Confirmations the SMTP server accepted, and how many distinct Message-IDs among them. */
  accepted: number;
  distinctMessageIds: number;
  /** The longest time from the end of an "on" phase until every confirmation was accepted. */
  drainSeconds: number;
  /** Emails sent during the "on" phases themselves (the worker keeps up while creates run). */
  sentDuringLoad: number;
}

/** The local SMTP server, in a child process: accepts everything, reports each Message-ID. */
async function smtpSink() {
  const child = await startChild(
    [path.join(ROOT, 'bench', 'smtp-sink.mjs')],
    { ...process.env },
    /LISTENING (\d+)/,
  );
  return {
    port: child.port,
    ids: () => [...child.output().matchAll(/^MSG (\S+)$/gm)].map((match) => match[1]!),
    close: () => child.stop(),
  };
}

/** The scenario on the embedded store, then on PostgreSQL when BENCH_DATABASE_URL is set. */
export async function runMailBenches(log: (line: string) => void): Promise<MailBenchResult[]> {
  const results = [await runMailBench(log)];
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (adminUrl) results.push(await runMailBench(log, 8, checkedDatabaseUrl(adminUrl)));
  return results;
}

export async function runMailBench(
  log: (line: string) => void,
  seconds = 8,
  postgres?: URL,
): Promise<MailBenchResult> {
  const store = postgres ? 'postgres' : 'pglite';
  log(
    `mail (${store}): POST /bookings with emails on vs off, the workers sending to a local SMTP server (issue 15)`,
  );
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-bench-mail-'));
  const scratch = postgres ? await scratchDatabase(postgres, 'bench_kairos_mail') : undefined;
  const dataDir = path.join(dir, 'data');
  const storeEnv: Record<string, string> = scratch
    ? { DATABASE_URL: scratch.databaseUrl }
    : { DATA_DIR: dataDir };
  const unregister = registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const sink = await smtpSink();
  try {
    // A year's horizon: eight phases on PostgreSQL book ~40,000 times.
    const { dataset } = await prepareStore({
      ...(scratch ? { databaseUrl: scratch.databaseUrl } : { dataDir }),
      horizonDays: 365,
    });
    const server = await startChild(
      [...serverNodeFlags(), path.join(DIST_SRC, 'main.js')],
      childEnv({
        ...storeEnv,
        WORKER: 'on',
        SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
        MAIL_FROM: 'Bench <bench@kairos.test>',
        METRICS_TOKEN: 'bench-mail',
      }),
      API_LINE,
    );
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const headers = { authorization: `Bearer ${dataset.apiKey}`, workspace: dataset.slug };
      let nextSlot = 0;
      let nextPhone = 0;
      let queued = 0;
      const body = (email: boolean) => () => {
        const slot = dataset.freeSlots[nextSlot++];
        if (!slot) throw new Error('the data set ran out of free slots');
        const phone = `+49152${String(nextPhone++).padStart(8, '0')}`;
        return JSON.stringify({
          ...createBody(dataset, slot, phone),
          ...(email ? { customer_email: `bench-${nextPhone}@example.com` } : {}),
        });
      };
      const load = (email: boolean, duration: number) =>
        runLoad({
          origin,
          path: '/api/public/v2/bookings',
          method: 'POST',
          headers,
          connections: CONNECTIONS,
          duration,
          bodies: body(email),
          serverPid: server.pid,
        });
      const dueNow = async () => {
        const text = await (
          await fetch(`${origin}/metrics`, { headers: { authorization: 'Bearer bench-mail' } })
        ).text();
        return Number(/^kairos_mail_messages_due (\d+)/m.exec(text)?.[1] ?? Number.NaN);
      };
      /**
       * Until every email of `created` creates arrived and the server's own figure
       * (kairos_mail_messages_due) says nothing is due; false at the deadline.
       */
      const drained = async (created: number, deadline: number) => {
        while (performance.now() < deadline) {
          if (sink.ids().length >= created && (await dueNow()) === 0) return true;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return false;
      };
      // Warm-up of both paths; its emails are sent before the measured phases start.
      await load(false, 3);
      queued = (await load(true, 3)).statusCounts['201'] ?? 0;
      await drained(queued, performance.now() + 120_000);
      const results = {
        off: [] as Awaited<ReturnType<typeof load>>[],
        on: [] as Awaited<ReturnType<typeof load>>[],
      };
      let sentDuringLoad = 0;
      // Each phase starts with an empty queue: what an "on" phase leaves unsent is drained
      // before the next phase, so it never slows an "off" phase down.
      const phaseDrains: number[] = [];
      for (const email of [false, true, true, false, true, false, false, true]) {
        const before = sink.ids().length;
        const result = await load(email, seconds);
        if (email) {
          queued += result.statusCounts['201'] ?? 0;
          sentDuringLoad += sink.ids().length - before;
          const ended = performance.now();
          if (!(await drained(queued, ended + 120_000))) throw new Error('the mail queue did not drain');
          phaseDrains.push((performance.now() - ended) / 1000);
        }
        results[email ? 'on' : 'off'].push(result);
        log(
          `  emails ${email ? 'on ' : 'off'}: ${result.rps.toFixed(0)} creates/s, p95 ${result.p95.toFixed(1)} ms, ` +
            `server cpu ${result.cpuMsPerRequest?.toFixed(1) ?? '?'} ms/create, ` +
            `statuses ${JSON.stringify(result.statusCounts)}` +
            (email
              ? `, ${sink.ids().length - before} sent during and after it, drained ${phaseDrains.at(-1)!.toFixed(1)} s after it`
              : ''),
        );
      }
      const drainSeconds = Math.max(...phaseDrains);
      const mean = (runs: { rps: number }[]) => runs.reduce((sum, r) => sum + r.rps, 0) / runs.length;
      const offRps = mean(results.off);
      const onRps = mean(results.on);
      const result: MailBenchResult = {
        store,
        offRps,
        onRps,
        ratio: onRps / offRps,
        offP95: Math.max(...results.off.map((r) => r.p95)),
        onP95: Math.max(...results.on.map((r) => r.p95)),
        queued,
        accepted: sink.ids().length,
        distinctMessageIds: new Set(sink.ids()).size,
        drainSeconds,
        sentDuringLoad,
      };
      log(
        `  on/off ${result.ratio.toFixed(2)} (bar ≥ 0.90); ${queued} confirmations queued, ${result.accepted} accepted ` +
          `(${result.distinctMessageIds} distinct Message-IDs), ${sentDuringLoad} of them while the creates ran; ` +
          `the queue drained at most ${drainSeconds.toFixed(1)} s after a phase`,
      );
      return result;
    } finally {
      await server.stop();
    }
  } finally {
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
    await scratch?.drop();
    unregister();
  }
}
