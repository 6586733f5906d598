import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../src/platform/db/client.js';
import type { DB } from '../src/platform/db/schema.js';
import type { BenchDataset, FreeSlot } from './dataset.js';
import { loadApp, loadConfig } from './dist.js';

/**
 * The database write ceiling (issue 6): pgbench replays the SQL statements that one
 * `POST /bookings` runs. The statements are not written by hand: one real create goes through
 * the built app in this process on a `pg` pool that records every query, its parameters and its
 * rows. The recording becomes a pgbench script in which the per-booking values vary — the
 * staffer, the instants (kept at their offsets from the start), the customer phone, and the ids
 * the database generates (taken from the statement that returned them, with \gset) — so each
 * pgbench transaction books a distinct free span, as each HTTP request does.
 */

export interface CapturedStatement {
  text: string;
  values: unknown[];
  rows: Record<string, unknown>[];
}

export interface PgbenchRun {
  tps: number;
  latencyMs: number;
  clients: number;
  seconds: number;
  failed: number;
  output: string;
}

/** The best of the pgbench runs (the ceiling), every run, and what one create sends. */
export interface WriteCeiling extends PgbenchRun {
  runs: PgbenchRun[];
  statements: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Far beyond the HTTP scenarios' dates, so pgbench spans never meet theirs. */
const PGBENCH_BASE = Date.UTC(2031, 0, 6) / 1000;
const SLOT_SECONDS = 1800;
/** Ten years of half-hour slots: far more than one run books. */
const RUN_SPACING_SECONDS = 10 * 365 * 86_400;

/** Runs one POST /bookings through the built app and returns every statement it sent. */
export async function captureCreate(
  databaseUrl: string,
  dataset: BenchDataset,
  slot: FreeSlot,
  phone: string,
): Promise<CapturedStatement[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const captured: CapturedStatement[] = [];
  let recording = false;
  const recordingPool = {
    async connect() {
      const client = await pool.connect();
      return {
        async query(text: string, values: unknown[] = []) {
          const result = await client.query(text, values);
          if (recording) captured.push({ text, values: [...values], rows: result.rows });
          return result;
        },
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
  const db = new Kysely<DB>({
    dialect: new PostgresDialect({ pool: recordingPool as unknown as pg.Pool }),
  });
  const database: Database = {
    kind: 'postgres',
    db,
    session: async () => {
      throw new Error('not used by the capture');
    },
    ping: async () => true,
    close: () => db.destroy(),
  };
  const { buildApp, API_PREFIX } = await loadApp();
  const { loadConfig: readConfig } = await loadConfig();
  const app = await buildApp({
    database,
    config: readConfig({ DATABASE_URL: databaseUrl, WORKER: 'off', LOG_LEVEL: 'warn' }),
    logger: false,
  });
  try {
    await app.ready();
    recording = true;
    const response = await app.inject({
      method: 'POST',
      url: `${API_PREFIX}/bookings`,
      headers: { authorization: `Bearer ${dataset.apiKey}`, workspace: dataset.slug },
      payload: createBody(dataset, slot, phone),
    });
    recording = false;
    if (response.statusCode !== 201) {
      throw new Error(`the captured create answered ${response.statusCode}: ${response.body}`);
    }
  } finally {
    await app.close();
    await database.close();
  }
  return captured;
}

export function createBody(dataset: BenchDataset, slot: FreeSlot, phone: string) {
  return {
    reserved_on: slot.start,
    location_uuid: dataset.locationA,
    service_uuid: dataset.probeServiceId,
    staffer_uuid: slot.stafferId,
    customer_phone: phone,
    customer_first_name: 'Bench',
    source: 'bench',
  };
}

export interface PgbenchScript {
  /** The script, with `{{STAFFER}}` where the staffer uuid goes. */
  text: string;
  /** Values that stay the same in every transaction, passed with -D and sent as parameters. */
  constants: Map<string, string>;
}

/**
 * The recording as a pgbench script. Per transaction: kv_k counts this client's transactions,
 * kv_slot is unique across clients, kv_start is its instant. Every other value is a parameter too
 * (a -D constant): with -M prepared pgbench turns any `:word` of the text into a parameter, even
 * inside a string literal, so no value may be inlined into the text.
 */
export function pgbenchScript(
  captured: CapturedStatement[],
  slot: FreeSlot,
  phone: string,
  /** What the request itself carried (body values, headers): constants, never generated here. */
  requestValues: Set<string>,
): PgbenchScript {
  const start = Date.parse(slot.start);
  const offsets = new Map<number, string>();
  const constants = new Map<string, string>();
  const constantNames = new Map<string, string>();
  const seenAsParameter = new Set<string>();
  /** Generated uuid -> the statement index and column that returned it first. */
  const produced = new Map<string, { statement: number; column: string }>();
  /** Uuids the app made up for this request (e.g. a new booking's id): one per transaction here. */
  const generated = new Map<string, string>();
  const gsetStatements = new Set<number>();
  const body: string[] = [];

  const constant = (text: string) => {
    if (text === '') return "''"; // pgbench refuses an empty -D value; an empty literal has no `:word`
    let name = constantNames.get(text);
    if (!name) {
      name = `kv_c${constantNames.size}`;
      constantNames.set(text, name);
      constants.set(name, text);
    }
    return `:${name}`;
  };
  const render = (value: unknown): string => {
    if (value === null || value === undefined) return 'NULL';
    if (value instanceof Date) {
      const offsetSeconds = (value.getTime() - start) / 1000;
      if (Math.abs(offsetSeconds) > 3 * 86_400 || !Number.isInteger(offsetSeconds))
        return constant(value.toISOString());
      if (!offsets.has(offsetSeconds)) offsets.set(offsetSeconds, `kv_t${offsets.size}`);
      return `to_timestamp(:${offsets.get(offsetSeconds)})`;
    }
    if (typeof value === 'string') {
      if (value === slot.stafferId) return `'{{STAFFER}}'`;
      if (value === phone) return `('+49171' || (:kv_start)::text)`;
      const source = produced.get(value);
      if (source) {
        gsetStatements.add(source.statement);
        return `:r${source.statement}_${source.column}`;
      }
      // A uuid first seen as a parameter, neither sent by the client nor read from the database,
      // was generated by the app for this request: derive one per transaction from kv_start (the
      // same text in every statement that uses it gives the same uuid).
      if (
        UUID.test(value) &&
        !requestValues.has(value) &&
        (generated.has(value) || !seenAsParameter.has(value))
      ) {
        if (!generated.has(value))
          generated.set(value, `md5((:kv_start)::text || '-g${generated.size}')::uuid`);
        return `(${generated.get(value)})`;
      }
      return constant(value);
    }
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
      return constant(String(value));
    // pg sends a JS array as a PostgreSQL array literal, and any other object as JSON.
    if (Array.isArray(value)) {
      const items = value.map((item) => `"${String(item).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`);
      return constant(`{${items.join(',')}}`);
    }
    return constant(JSON.stringify(value));
  };

  captured.forEach((statement, index) => {
    const text = statement.text
      .trim()
      .replace(/\$(\d+)/g, (_, n: string) => render(statement.values[Number(n) - 1]));
    for (const value of statement.values) if (typeof value === 'string') seenAsParameter.add(value);
    body.push(text);
    // Only one-row answers can feed \gset; ids that reached this statement as parameters are not new.
    if (statement.rows.length !== 1) return;
    for (const [column, value] of Object.entries(statement.rows[0]!)) {
      if (
        typeof value === 'string' &&
        UUID.test(value) &&
        !seenAsParameter.has(value) &&
        !produced.has(value)
      )
        produced.set(value, { statement: index, column });
    }
  });

  const lines = [
    '\\set kv_k :kv_k + 1',
    '\\set kv_slot :kv_k * :kv_clients + :client_id',
    `\\set kv_start :kv_base + :kv_slot * ${SLOT_SECONDS}`,
    ...[...offsets].map(([offset, name]) => `\\set ${name} :kv_start + ${offset}`),
    ...body.map((text, index) => (gsetStatements.has(index) ? `${text} \\gset r${index}_` : `${text};`)),
  ];
  return { text: `${lines.join('\n')}\n`, constants };
}

/** Runs pgbench with one script per staffer (pgbench variables hold no strings of our making). */
export async function runPgbench(options: {
  databaseUrl: string;
  script: PgbenchScript;
  stafferIds: string[];
  dir: string;
  clients: number;
  seconds: number;
  /** Runs on one database must not meet each other's spans: each gets its own years. */
  runIndex?: number;
}): Promise<PgbenchRun> {
  const url = new URL(options.databaseUrl);
  const files = options.stafferIds.map((staffer, index) => {
    const file = path.join(options.dir, `create-booking-${index}.sql`);
    writeFileSync(file, options.script.text.replaceAll('{{STAFFER}}', staffer));
    return file;
  });
  const args = [
    '-n',
    '-M',
    // The server names its parameterised statements (src/db/prepared-statements.ts), so the
    // replay prepares them too: same protocol, same parse and plan work saved.
    'prepared',
    '-c',
    String(options.clients),
    '-j',
    '2',
    '-T',
    String(options.seconds),
    '-D',
    'kv_k=0',
    '-D',
    `kv_clients=${options.clients}`,
    '-D',
    `kv_base=${PGBENCH_BASE + (options.runIndex ?? 0) * RUN_SPACING_SECONDS}`,
    ...[...options.script.constants].flatMap(([name, value]) => ['-D', `${name}=${value}`]),
    ...files.flatMap((file) => ['-f', `${file}@1`]),
    '-h',
    url.hostname,
    '-p',
    url.port || '5432',
    '-U',
    decodeURIComponent(url.username || 'postgres'),
    decodeURIComponent(url.pathname.slice(1)),
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('pgbench', args, {
      env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), (options.seconds + 60) * 1000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(text);
      else reject(new Error(`pgbench exited with ${code}:\n${text.slice(-3000)}`));
    });
  });
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? Number.NaN);
  return {
    tps: Math.round(number(/^tps = ([\d.]+)/m) * 10) / 10,
    latencyMs: number(/^latency average = ([\d.]+) ms/m),
    clients: options.clients,
    seconds: options.seconds,
    failed: number(/^number of failed transactions: (\d+)/m) || 0,
    output,
  };
}

/** A short label per statement, for the report. */
export function statementLabels(captured: CapturedStatement[]): string[] {
  return captured.map((statement) => {
    const text = statement.text.replace(/\s+/g, ' ').trim();
    if (/^(begin|commit|rollback|savepoint|release)/i.test(text)) return text.toLowerCase();
    // Kysely quotes the statement's own tables; raw SQL subqueries (unquoted) come second.
    const table = (name: string) =>
      (new RegExp(`\\b${name}\\s+"(\\w+)"`, 'i').exec(text) ??
        new RegExp(`\\b${name}\\s+(\\w+)`, 'i').exec(text))?.[1];
    if (/^with\b/i.test(text)) {
      const writes = [...text.matchAll(/\b(insert into|update|delete from)\s+"?(\w+)"?/gi)];
      return `with ${writes.map((w) => `${w[1]!.toLowerCase()} ${w[2]}`).join(' + ')}`;
    }
    const verb = /^(select|insert into|update|delete from)\b/i.exec(text)?.[1]?.toLowerCase();
    if (!verb) return text.slice(0, 40);
    const target = verb === 'select' ? table('from') : table(verb);
    return target ? `${verb} ${target}` : text.slice(0, 40).toLowerCase();
  });
}
