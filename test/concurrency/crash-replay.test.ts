import { rmSync } from 'node:fs';
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/platform/db/client.js';
import {
  createScratchDatabase,
  ensureServerBuilt,
  migratedDataDir,
  ServerProcess,
  type Store,
} from '../helpers/server-process.js';

/**
 * The crash: 100 keyed writes in flight against a real server process — creates
 * of individual appointments, many customers joining one group session, cancels and completes —
 * then `kill -9`, a restart on the same store, and every request sent again with its key.
 *
 * - every answer received before the kill comes back identically (status and bytes), replayed;
 * - every other request runs at once (no "in progress" refusal) and succeeds: committed before the
 *   kill (its reply lost) it is replayed, never committed it runs now;
 * - nothing is written twice: one booking per create, one event per change, one payment per
 *   complete, one seat per participant.
 */

const API = '/api/public/v2';
const CREATES = 40;
const JOINS = 30;
const CANCELS = 15;
const COMPLETES = 15;

interface Request {
  key: string;
  method: 'POST' | 'PUT';
  path: string;
  body: Record<string, unknown>;
}
interface Answer {
  status: number;
  body: string;
  replayed: boolean;
}

class Client {
  constructor(
    private readonly base: string,
    private readonly headers: Record<string, string>,
  ) {}

  async send(method: string, path: string, body?: unknown, key?: string): Promise<Answer> {
    const response = await fetch(`${this.base}${API}${path}`, {
      method,
      headers: {
        ...this.headers,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: response.status,
      body: await response.text(),
      replayed: response.headers.get('idempotent-replayed') === 'true',
    };
  }

  async json(method: string, path: string, body?: unknown) {
    const answer = await this.send(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.body}`);
    return JSON.parse(answer.body);
  }
}

const phone = (i: number) => `+49151${String(30_000_000 + i)}`;

/** The writes of the batch, on the demo workspace's Berlin studio, plus the bookings they change. */
async function prepare(client: Client): Promise<Request[]> {
  await client.json('PATCH', '/workspace', { staffer_selection: 'automatic' });
  const locations = (await client.json('GET', '/locations')).data as {
    uuid: string;
    timezone: { name: string };
  }[];
  const berlin = locations.find((l) => l.timezone.name === 'Europe/Berlin')!;
  const services = (await client.json('GET', `/locations/${berlin.uuid}/services?per_page=100`)).data as {
    uuid: string;
    name: string;
  }[];
  const express = services.find((s) => s.name === 'Express Haircut')!;
  const yoga = services.find((s) => s.name === 'Vinyasa Yoga Class')!;
  await client.json('PATCH', `/services/${yoga.uuid}`, { capacity: JOINS + 10 });
  const account = (await client.json('GET', `/locations/${berlin.uuid}/accounts`)).data[0].uuid as string;
  const from = DateTime.now().setZone('Europe/Berlin').plus({ days: 2 }).toISODate()!;
  const to = DateTime.now().setZone('Europe/Berlin').plus({ days: 30 }).toISODate()!;
  const slotsOf = async (service: string, staffer?: string) => {
    const query = `service_uuid=${service}&range_start=${from}&range_end=${to}${staffer ? `&staffer_uuid=${staffer}` : ''}`;
    const answer = await client.send('GET', `/locations/${berlin.uuid}/time-slots?${query}`);
    // 422 for a staffer who does not teach it.
    if (answer.status !== 200) return [];
    const dates = JSON.parse(answer.body).dates as { slots: { start_time: string; quantity: number }[] }[];
    return dates.flatMap((d) => d.slots);
  };
  // Express haircut starts two hours apart: no two of them compete for a staffer.
  const starts: string[] = [];
  for (const slot of await slotsOf(express.uuid)) {
    const last = starts.at(-1);
    if (last === undefined || Date.parse(slot.start_time) - Date.parse(last) >= 2 * 3_600_000) {
      starts.push(slot.start_time);
    }
  }
  expect(starts.length).toBeGreaterThanOrEqual(CREATES + CANCELS + COMPLETES);
  // One yoga session with room for everyone, of one teacher.
  const staffers = (await client.json('GET', `/locations/${berlin.uuid}/staffers?per_page=100`)).data as {
    uuid: string;
  }[];
  let session: { staffer: string; start: string } | undefined;
  for (const staffer of staffers) {
    const free = (await slotsOf(yoga.uuid, staffer.uuid)).find((slot) => slot.quantity === JOINS + 10);
    if (free) {
      session = { staffer: staffer.uuid, start: free.start_time };
      break;
    }
  }
  expect(session).toBeDefined();
  const create = (i: number, start: string, service = express.uuid, staffer?: string) => ({
    reserved_on: start,
    location_uuid: berlin.uuid,
    service_uuid: service,
    ...(staffer ? { staffer_uuid: staffer } : {}),
    customer_phone: phone(i),
    customer_first_name: `Guest ${i}`,
  });
  // The bookings the batch cancels and completes, made before it.
  const existing: string[] = [];
  for (let i = 0; i < CANCELS + COMPLETES; i += 1) {
    existing.push((await client.json('POST', '/bookings', create(900 + i, starts[CREATES + i]!))).data.uuid);
  }
  const requests: Request[] = [];
  for (let i = 0; i < CREATES; i += 1) {
    requests.push({ key: `create-${i}`, method: 'POST', path: '/bookings', body: create(i, starts[i]!) });
  }
  for (let i = 0; i < JOINS; i += 1) {
    const body = create(100 + i, session!.start, yoga.uuid, session!.staffer);
    requests.push({ key: `join-${i}`, method: 'POST', path: '/bookings', body });
  }
  existing.forEach((uuid, i) => {
    requests.push(
      i < CANCELS
        ? {
            key: `cancel-${i}`,
            method: 'PUT',
            path: `/bookings/${uuid}/status/cancel`,
            body: { cancel_reason: 'canceled' },
          }
        : {
            key: `complete-${i}`,
            method: 'PUT',
            path: `/bookings/${uuid}/status/complete`,
            body: { account_uuid: account, paid_amount: 2500 },
          },
    );
  });
  // Interleaved, so the kill lands in the middle of every kind of write.
  const kinds = ['create', 'join', 'cancel', 'complete'].map((kind) =>
    requests.filter((request) => request.key.startsWith(`${kind}-`)),
  );
  return Array.from({ length: CREATES }, (_, i) => kinds.map((list) => list[i]))
    .flat()
    .filter((r) => r !== undefined);
}

/** What the store holds for the batch: each must be exactly one. */
async function rowCounts(database: Database, requests: Request[]) {
  const db = database.db;
  const phones = requests.filter((r) => r.path === '/bookings').map((r) => r.body.customer_phone as string);
  const perCustomer = await db
    .selectFrom('bookings as b')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.workspace_id', '=', 'b.workspace_id').onRef('c.id', '=', 'b.customer_id'),
    )
    .select(['c.phone', (eb) => eb.fn.countAll<number>().as('n')])
    .where('c.phone', 'in', phones)
    .groupBy('c.phone')
    .execute();
  const changed = requests.filter((r) => r.method === 'PUT').map((r) => r.path.split('/')[2]!);
  const created = await db
    .selectFrom('bookings as b')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.workspace_id', '=', 'b.workspace_id').onRef('c.id', '=', 'b.customer_id'),
    )
    .select('b.id')
    .where('c.phone', 'in', phones)
    .execute();
  const events = await db
    .selectFrom('outbox_events')
    .select(['booking_id', 'type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('booking_id', 'in', [...changed, ...created.map((row) => row.id)])
    .groupBy(['booking_id', 'type'])
    .execute();
  const payments = await db
    .selectFrom('payments')
    .select(['booking_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('booking_id', 'in', changed)
    .groupBy('booking_id')
    .execute();
  const seats = await db
    .selectFrom('occupancies as o')
    .innerJoin('bookings as b', (j) =>
      j.onRef('b.workspace_id', '=', 'o.workspace_id').onRef('b.occupancy_id', '=', 'o.id'),
    )
    .select(['o.id', 'o.seats_taken'])
    .where(
      'b.id',
      'in',
      created.map((row) => row.id),
    )
    .distinct()
    .execute();
  return { perCustomer, events, payments, seats };
}

const cleanups: (() => unknown)[] = [];

async function crashAndResend(store: Store, openStore: () => Promise<Database>) {
  await ensureServerBuilt();
  const first = new ServerProcess(store);
  // Whatever fails below, no server is left running.
  cleanups.push(() => first.stop('SIGKILL'));
  const started = await first.started;
  expect(started.demo, first.log).toBeDefined();
  const headers = { authorization: `Bearer ${started.demo!.apiKey}`, workspace: started.demo!.slug };
  const requests = await prepare(new Client(started.base, headers));

  const client = new Client(started.base, headers);
  const before = new Map<string, Answer>();
  let killed: Promise<unknown> | undefined;
  const inFlight = requests.map((request) =>
    client.send(request.method, request.path, request.body, request.key).then(
      (answer) => {
        if (killed === undefined) before.set(request.key, answer);
        // A quarter answered: kill the server with the rest in flight.
        if (before.size === 25 && killed === undefined) killed = first.stop('SIGKILL');
      },
      () => undefined,
    ),
  );
  await Promise.all(inFlight);
  const exit = await first.exited;
  expect(exit.signal, 'the server was killed, not finished').toBe('SIGKILL');
  expect(before.size).toBeGreaterThan(0);
  expect(before.size, 'some writes were still in flight at the kill').toBeLessThan(requests.length);
  for (const [key, answer] of before) expect(answer.status, `${key}: ${answer.body}`).toBeLessThan(300);

  const second = new ServerProcess(store);
  cleanups.push(() => second.stop('SIGKILL'));
  try {
    const again = new Client((await second.started).base, headers);
    const after = await Promise.all(
      requests.map(async (request) => ({
        request,
        answer: await again.send(request.method, request.path, request.body, request.key),
      })),
    );
    for (const { request, answer } of after) {
      const earlier = before.get(request.key);
      if (earlier) {
        expect(answer, request.key).toEqual({ ...earlier, replayed: true });
      } else {
        expect(answer.status, `${request.key}: ${answer.body}`).toBe(request.method === 'POST' ? 201 : 200);
      }
    }
  } finally {
    await second.stop();
  }
  const database = await openStore();
  try {
    const { perCustomer, events, payments, seats } = await rowCounts(database, requests);
    expect(perCustomer).toHaveLength(CREATES + JOINS);
    expect(perCustomer.every((row) => Number(row.n) === 1)).toBe(true);
    expect(events).toHaveLength(CREATES + JOINS + CANCELS * 2 + COMPLETES * 2);
    expect(events.every((row) => Number(row.n) === 1)).toBe(true);
    expect(payments).toHaveLength(COMPLETES);
    expect(payments.every((row) => Number(row.n) === 1)).toBe(true);
    // 40 haircut seats of one place each, and the one yoga session with exactly 30 taken.
    expect(seats.map((seat) => seat.seats_taken).sort((a, b) => a - b)).toEqual([
      ...Array(CREATES).fill(1),
      JOINS,
    ]);
  } finally {
    await database.close();
  }
}

const url = process.env.TEST_DATABASE_URL;
afterAll(async () => {
  // Last in, first out: servers stop before their store goes.
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('kill -9 with 100 keyed writes in flight, then every request again', () => {
  it('on PGlite (DATA_DIR)', async () => {
    const dataDir = migratedDataDir('kairos-crash-');
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    await crashAndResend({ dataDir }, () => openDatabase({ dataDir, lockOwner: 'test' }));
  }, 600_000);

  it.skipIf(!url)(
    'on PostgreSQL',
    async () => {
      const scratch = await createScratchDatabase(url!, 'kairos_crash');
      cleanups.push(() => scratch.drop());
      await crashAndResend({ databaseUrl: scratch.url }, () =>
        openDatabase({ databaseUrl: scratch.url, poolSize: 2 }),
      );
    },
    600_000,
  );
});
