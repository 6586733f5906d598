// Emails under load (issue 15 point 7): POST /bookings throughput with emails on, while the
// server's own workers send them to a local SMTP server, against the same with emails off, in one
// run on one server; and whether the mail queue drains afterwards.
// Part of `npm run bench`; alone: `BENCH_ONLY=mail npm run bench`.
//
// "Off" books without a customer email (nothing is queued); "on" books with one, so each create
// queues a confirmation (sent at once) and a 24-hour reminder (due later) in its transaction.
// Phases alternate off/on twice so that a drift of the machine's load hits both alike.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { registerCleanup, startChild } from './children.js';
import { DIST_SRC, serverNodeFlags } from './dist.js';
import { runLoad } from './load.js';
import { createBody } from './pgbench.js';
import { API_LINE, childEnv, prepareStore } from './stores.js';

const CONNECTIONS = 16;

export interface MailBenchResult {
  offRps: number;
  onRps: number;
  /** on / off (bar: ≥ 0.9). */
  ratio: number;
  onP95: number;
  offP95: number;
  /** Creates with an email (each queued one confirmation to send now). */
  queued: number;
  /** Confirmations the SMTP server accepted (after the warm-up), and how many distinct Message-IDs. */
  accepted: number;
  distinctMessageIds: number;
  /** Seconds from the end of the load until every confirmation was accepted; null if it never was. */
  drainSeconds: number | null;
  /** Emails sent during the "on" phases themselves (the worker keeps up while creates run). */
  sentDuringLoad: number;
}

/** A local SMTP server that accepts everything and counts it by Message-ID. */
async function smtpSink() {
  const ids: string[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('utf8');
      });
      stream.on('end', () => {
        ids.push(/^Message-ID:\s*(\S+)/im.exec(head)?.[1] ?? '?');
        callback(null, 'Ok');
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
  return { port, ids, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export async function runMailBench(log: (line: string) => void, seconds = 8): Promise<MailBenchResult> {
  log('mail: POST /bookings with emails on vs off, the workers sending to a local SMTP server (issue 15)');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-bench-mail-'));
  const dataDir = path.join(dir, 'data');
  const unregister = registerCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const sink = await smtpSink();
  try {
    const { dataset } = await prepareStore({ dataDir });
    const server = await startChild(
      [...serverNodeFlags(), path.join(DIST_SRC, 'main.js')],
      childEnv({
        DATA_DIR: dataDir,
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
      // Warm-up of both paths (its emails are sent too, but not counted below).
      await load(false, 3);
      await load(true, 3);
      const dueNow = async () => {
        const text = await (
          await fetch(`${origin}/metrics`, { headers: { authorization: 'Bearer bench-mail' } })
        ).text();
        return Number(/^kairos_mail_messages_due (\d+)/m.exec(text)?.[1] ?? Number.NaN);
      };
      const warmupSent = async () => {
        while ((await dueNow()) > 0) await new Promise((r) => setTimeout(r, 200));
        return sink.ids.length;
      };
      const baseline = await warmupSent();
      const results = {
        off: [] as Awaited<ReturnType<typeof load>>[],
        on: [] as Awaited<ReturnType<typeof load>>[],
      };
      let sentDuringLoad = 0;
      queued = 0;
      for (const email of [false, true, false, true]) {
        const before = sink.ids.length;
        const result = await load(email, seconds);
        if (email) {
          queued += result.statusCounts['201'] ?? 0;
          sentDuringLoad += sink.ids.length - before;
        }
        results[email ? 'on' : 'off'].push(result);
        log(
          `  emails ${email ? 'on ' : 'off'}: ${result.rps.toFixed(0)} creates/s, p95 ${result.p95.toFixed(1)} ms, ` +
            `statuses ${JSON.stringify(result.statusCounts)}, sent so far ${sink.ids.length}`,
        );
      }
      const loadEnded = performance.now();
      const deadline = loadEnded + 120_000;
      while (sink.ids.length < queued && performance.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      const drainSeconds = sink.ids.length >= queued ? (performance.now() - loadEnded) / 1000 : null;
      const mean = (runs: { rps: number }[]) => runs.reduce((sum, r) => sum + r.rps, 0) / runs.length;
      const offRps = mean(results.off);
      const onRps = mean(results.on);
      const result: MailBenchResult = {
        offRps,
        onRps,
        ratio: onRps / offRps,
        offP95: Math.max(...results.off.map((r) => r.p95)),
        onP95: Math.max(...results.on.map((r) => r.p95)),
        queued,
        accepted: sink.ids.length - baseline,
        distinctMessageIds: new Set(sink.ids.slice(baseline)).size,
        drainSeconds,
        sentDuringLoad,
      };
      log(
        `  on/off ${result.ratio.toFixed(2)} (bar ≥ 0.90); ${queued} confirmations queued, ${result.accepted} accepted ` +
          `(${result.distinctMessageIds} distinct Message-IDs), ${sentDuringLoad} of them during the load; ` +
          `queue drained ${drainSeconds === null ? 'NOT within 120 s' : `${drainSeconds.toFixed(1)} s after the load`}`,
      );
      return result;
    } finally {
      await server.stop();
    }
  } finally {
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
    unregister();
  }
}
