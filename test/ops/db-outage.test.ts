import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrivatePostgres } from '../helpers/private-postgres.js';
import { ensureServerBuilt, ServerProcess, startWorkerProcess } from '../helpers/server-process.js';
import { WebhookReceiver } from '../helpers/webhook-receiver.js';
import { call, countBy, isSuccess, WriteLoop } from './write-loop.js';

/**
 * A database outage: PostgreSQL drops every connection, then goes away for 10 s, under a steady write
 * load. The server and a standalone worker (real processes, dist/) must stay up; requests get 503
 * JSON with Retry-After and /health 503; once the database is back the server serves again within
 * 5 s without a restart; nothing that got a 2xx is lost; the worker pauses, resumes and delivers.
 *
 * It runs its own PostgreSQL cluster (initdb in a temp folder, its own port), since it stops and
 * restarts it. It runs in the PostgreSQL pass of the suite (TEST_DATABASE_URL set), where the
 * PostgreSQL binaries are installed.
 */
const API = '/api/public/v2';
const OUTAGE_MS = 10_000;
const hasPostgres = Boolean(process.env.TEST_DATABASE_URL) && PrivatePostgres.binaries() !== undefined;

let cluster: PrivatePostgres;
let receiver: WebhookReceiver;
let server: ServerProcess;
let worker: ServerProcess;
let base: string;
let headers: Record<string, string>;
let webhookUuid: string;

describe.skipIf(!hasPostgres)('a PostgreSQL outage under writes (server and standalone worker)', () => {
  beforeAll(async () => {
    await ensureServerBuilt();
    cluster = await PrivatePostgres.create();
    receiver = await WebhookReceiver.start();
    const env = { WEBHOOKS_ALLOW_PRIVATE: 'true', API_RATE_LIMIT_PER_MINUTE: '0', METRICS_TOKEN: 'outage' };
    server = new ServerProcess({ databaseUrl: cluster.url }, { logLevel: 'info', env });
    const started = await server.started;
    base = started.base;
    headers = {
      authorization: `Bearer ${started.demo!.apiKey}`,
      workspace: started.demo!.slug,
      'content-type': 'application/json',
    };
    const created = await fetch(`${base}${API}/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, events: ['*'] }),
    });
    expect(created.status).toBe(201);
    webhookUuid = ((await created.json()) as { data: { uuid: string } }).data.uuid;
    worker = startWorkerProcess({ databaseUrl: cluster.url }, { env });
    await worker.waitForOutput(/webhook delivery worker started/);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([server, worker].filter(Boolean).map((child) => child.stop('SIGKILL')));
    await receiver?.stop();
    await cluster?.destroy();
  });

  it('stays up, answers 503 while down, serves again within 5 s and loses no 2xx', async () => {
    // Two kinds of write: a location (a row to find again) and a webhook test event (a delivery
    // the standalone worker must make).
    const agent = new http.Agent({ keepAlive: true });
    const auth = { authorization: headers.authorization!, workspace: headers.workspace! };
    const loop = new WriteLoop(3, (writer, iteration) =>
      (writer + iteration) % 2 === 0
        ? {
            kind: 'location',
            request: call(agent, base, 'POST', `${API}/locations`, auth, {
              name: `Outage ${writer}-${iteration}`,
              timezone: 'Europe/Paris',
            }),
          }
        : {
            kind: 'test-event',
            request: call(agent, base, 'POST', `${API}/webhooks/${webhookUuid}/test`, auth),
          },
    );
    try {
      await loop.waitForSuccesses(30);

      // 1. Every backend terminated, three times, with writes in flight.
      let terminated = 0;
      for (let round = 1; round <= 3; round++) {
        terminated += await cluster.terminateBackends();
        const after = Date.now();
        await loop.waitFor((answer) => isSuccess(answer) && answer.at > after, 5_000);
      }
      expect(terminated).toBeGreaterThan(0);
      expect(server.running, server.log).toBe(true);
      expect(worker.running, worker.log).toBe(true);

      // 2. The cluster stops at once (as a crash) and stays down for 10 s.
      await cluster.stopImmediate();
      const downAt = Date.now();
      const refused = await loop.waitFor((answer) => answer.status === 503 && answer.at > downAt, 5_000);
      expect(refused.body).toMatchObject({ code: 'service_unavailable', message: expect.any(String) });
      expect(refused.headers?.['retry-after']).toBe('5');
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ code: 'service_unavailable' });
      await worker.waitForOutput(/webhook worker paused/, OUTAGE_MS);
      // The outage itself is a span of time, not an event to await.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - downAt))));
      expect(server.running, server.log).toBe(true);
      expect(worker.running, worker.log).toBe(true);

      // 3. The cluster comes back: the same processes serve again within 5 s.
      await cluster.start();
      const upAt = Date.now();
      const firstWrite = await loop.waitFor((answer) => isSuccess(answer) && answer.at > upAt, 10_000);
      const recoverMs = firstWrite.at - upAt;
      expect((await fetch(`${base}/health`)).status).toBe(200);
      await worker.waitForOutput(/webhook worker resumed/, 10_000);
      await loop.waitForSuccesses(loop.successes.length + 10, 10_000);
      await loop.stop();

      // 4. Every answer was a success or our 503; nothing failed at the transport level.
      const byStatus = countBy(loop.answers.map((answer) => String(answer.status)));
      expect(Object.keys(byStatus).sort()).toEqual(expect.arrayContaining(['201', '202', '503']));
      for (const answer of loop.answers) {
        expect([201, 202, 503], JSON.stringify(answer.body)).toContain(answer.status);
        if (answer.status === 503) expect(answer.body).toMatchObject({ code: 'service_unavailable' });
      }

      // 5. No 2xx lost: each created location reads back, each accepted test event is delivered.
      const locations = loop.successes.filter((answer) => answer.kind === 'location');
      const missing: string[] = [];
      for (const answer of locations) {
        const uuid = (answer.body!.data as { uuid: string }).uuid;
        const read = await fetch(`${base}${API}/locations/${uuid}`, { headers });
        if (read.status !== 200) missing.push(uuid);
      }
      expect(missing).toEqual([]);
      const events = loop.successes.filter((answer) => answer.kind === 'test-event');
      const wanted = new Set(
        events.map((answer) => (answer.body!.data as { message_id: string }).message_id),
      );
      const delivered = async () => new Set((await receiver.waitFor(0)).map((request) => request.id));
      const deadline = Date.now() + 60_000;
      let undelivered = [...wanted];
      while (Date.now() < deadline) {
        const seen = await delivered();
        undelivered = [...wanted].filter((id) => !seen.has(id));
        if (undelivered.length === 0) break;
        await receiver.waitFor(receiver.requests.length + 1, deadline - Date.now()).catch(() => {});
      }
      expect(undelivered).toEqual([]);

      // The operator saw it: dropped connections and failed connects are counted, the store is up again.
      const metrics = await (
        await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer outage' } })
      ).text();
      const errors = (kind: string) =>
        Number(
          new RegExp(`^kairos_db_errors_total\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(metrics)?.[1] ?? 0,
        );
      expect(errors('connection_lost')).toBeGreaterThan(0);
      expect(errors('connect_failed')).toBeGreaterThan(0);
      expect(metrics).toMatch(
        /^kairos_http_requests_total\{method="POST",route="\/api\/public\/v2\/locations",status="503"\} [1-9]/m,
      );

      console.log(
        `outage figures: ${loop.answers.length} writes (${JSON.stringify(byStatus)}), ` +
          `${terminated} backends terminated in 3 rounds, ${OUTAGE_MS / 1000} s stopped; ` +
          `time to recover after the cluster was back: ${recoverMs} ms; ` +
          `2xx lost: ${missing.length} of ${locations.length} locations, ` +
          `${undelivered.length} of ${wanted.size} test events undelivered`,
      );
    } finally {
      await loop.stop();
      agent.destroy();
    }
  }, 180_000);
});
