import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * The built server (`node dist/src/main.js`) as a child process, for tests over a real socket,
 * on the embedded store in a DATA_DIR or on a PostgreSQL database.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Builds dist/ when it is older than the sources, as `npm start` would, but never installs
 * anything, and at most once per test run: test files that need it at the same moment take
 * turns on a lock folder, and the ones after the first find dist/ fresh. Only the files that run
 * the built server pay for it, so a run of unit tests after an edit does not wait for tsc.
 */
export async function ensureServerBuilt(): Promise<void> {
  const prepare = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'prepare.mjs')).href)) as {
    isBuildStale(): boolean;
    buildIfStale(): void;
  };
  if (!prepare.isBuildStale()) return;
  const lock = path.join(ROOT, 'dist.build-lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than any build is left by a killed run.
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 300_000)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    prepare.buildIfStale();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export type Store = { databaseUrl: string } | { dataDir: string };

const citusDemos = new WeakSet<Store>();
const runNode = (args: string[], env: NodeJS.ProcessEnv) =>
  promisify(execFile)(process.execPath, args, { env });

/**
 * On the Citus suite every file's store is the one shared database, where only the very first
 * start seeds a demo workspace. What a first start on a store of its own would print, the first
 * start on each Store object gets instead: a demo workspace of its own, made by the CLI.
 */
async function sharedStoreDemo(store: Store): Promise<Started['demo']> {
  const citusUrl = process.env.TEST_CITUS_URL;
  if (!citusUrl || !('databaseUrl' in store) || store.databaseUrl !== citusUrl || citusDemos.has(store)) {
    return undefined;
  }
  citusDemos.add(store);
  // One at a time: two workspace creates at once can deadlock on Citus, where both write the
  // `workspaces` reference table on every node.
  const turn = demoTurn.then(() => createDemo(citusUrl));
  demoTurn = turn.catch(() => undefined);
  return turn;
}

let demoTurn: Promise<unknown> = Promise.resolve();

async function createDemo(citusUrl: string): Promise<Started['demo']> {
  const slug = `demo-${randomBytes(4).toString('hex')}`;
  const { stdout } = await runNode(
    [
      path.join(ROOT, 'dist', 'src', 'cli', 'main.js'),
      'workspace',
      'create',
      '--slug',
      slug,
      '--name',
      'Demo Studio',
      '--demo',
    ],
    { ...process.env, DATABASE_URL: citusUrl },
  );
  const created = JSON.parse(stdout) as { api_key: { secret: string } };
  return { slug, apiKey: created.api_key.secret };
}

/**
 * A new DATA_DIR holding a copy of the migrated store the global set-up made once: a server
 * started on it skips initdb and the migrations (~2.5 s), and is otherwise on a first run (no
 * workspace yet: it seeds the demo). Tests of the first run itself (initdb, migrating) start
 * from an empty folder instead.
 */
export function migratedDataDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  cpSync(inject('pgliteDataDir'), dir, { recursive: true });
  return dir;
}

export interface Started {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  /** Present on the first start of an empty store, which seeds the demo workspace. */
  demo?: { slug: string; apiKey: string };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerOptions {
  /** Default 'off': tests that want deliveries say so. */
  worker?: 'on' | 'off';
  /** Default 'silent'; 'info' when a test waits for a log line. */
  logLevel?: string;
  env?: NodeJS.ProcessEnv;
  /** What to run, relative to dist/src: the server (default) or `worker-main.js`. */
  script?: string;
}

export class ServerProcess {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  /** Resolves once the process has exited and its output is complete. */
  readonly exited: Promise<Exit>;
  /** Resolves once the start-up banner is out (it is printed after listen). */
  readonly started: Promise<Started>;
  private readonly waiters = new Set<() => void>();

  constructor(store: Store, options: ServerOptions = {}) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      WORKER: options.worker ?? 'off',
      LOG_LEVEL: options.logLevel ?? 'silent',
    };
    for (const name of [
      'DATABASE_URL',
      'DATA_DIR',
      'TEST_DATABASE_URL',
      'PUBLIC_URL',
      'METRICS_PORT',
      'METRICS_TOKEN',
      'REDIS_URL',
      'INVALIDATION_BUS',
      'INVALIDATION_CHANNEL',
    ])
      delete env[name];
    if ('databaseUrl' in store) env.DATABASE_URL = store.databaseUrl;
    else env.DATA_DIR = store.dataDir;
    Object.assign(env, options.env);
    this.child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', options.script ?? 'main.js')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const notify = () => {
      for (const waiter of this.waiters) waiter();
    };
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      notify();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        resolve({ code, signal });
        notify();
      });
    });
    // The banner (API line, then the demo workspace if any) is one small, hence atomic, write.
    this.started = this.waitForOutput(/API: +(http:\/\/\S+)\/api\/public\/v2\n[\s\S]*?\n\n/).then(
      async (match) => {
        const slug = /Workspace: +(\S+)\n/.exec(this.stdout)?.[1];
        const apiKey = /API key: +(\S+)\n/.exec(this.stdout)?.[1];
        const demo = slug && apiKey ? { slug, apiKey } : await sharedStoreDemo(store);
        return { base: match[1]!, ...(demo ? { demo } : {}) };
      },
    );
    // A test that never awaits `started` (set-up failed elsewhere) must not see an unhandled rejection.
    this.started.catch(() => {});
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything the process wrote so far, for failure messages. */
  get log(): string {
    return `--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}`;
  }

  /** The base URL, once the start-up banner is out. */
  async baseUrl(): Promise<string> {
    return (await this.started).base;
  }

  /** Resolves with the first match of pattern in stdout; fails if the process ends first. */
  waitForOutput(pattern: RegExp, timeoutMs = 90_000): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`timed out waiting for ${pattern}`)), timeoutMs);
      const finish = (error?: Error, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (match) resolve(match);
        else reject(new Error(`${error?.message}\n${this.log}`));
      };
      const check = () => {
        const match = pattern.exec(this.stdout);
        if (match) finish(undefined, match);
        else if (!this.running) finish(new Error(`the server exited before printing ${pattern}`));
      };
      this.waiters.add(check);
      check();
    });
  }

  /** SIGTERM by default (graceful); escalates to SIGKILL if the process hangs. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<Exit> {
    if (!this.running) return this.exited;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }
}

/**
 * `npm run worker` (the standalone delivery worker) as a child process. It prints no banner:
 * wait for its log line instead (logLevel defaults to 'info' here for that reason).
 */
export function startWorkerProcess(store: Store, options: ServerOptions = {}): ServerProcess {
  return new ServerProcess(store, { logLevel: 'info', ...options, script: 'worker-main.js' });
}

/** A new, empty database on the server of `adminUrl`; `drop` removes it even if still connected. */
export async function createScratchDatabase(adminUrl: string, prefix: string) {
  // On the Citus suite the distributed database is the one store every process shares.
  const citusUrl = process.env.TEST_CITUS_URL;
  if (citusUrl) return { name: new URL(citusUrl).pathname.slice(1), url: citusUrl, drop: async () => {} };
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminSql(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminSql(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function adminSql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * A store of a test file's own for its server processes: a scratch database when the suite runs
 * on PostgreSQL (TEST_DATABASE_URL), else a copy of the migrated data folder. `remove` drops or
 * deletes it.
 */
export async function ownStore(name: string): Promise<{ store: Store; remove: () => Promise<void> }> {
  const adminUrl = process.env.TEST_CITUS_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, `kairos_${name}`);
    return { store: { databaseUrl: scratch.url }, remove: scratch.drop };
  }
  const dataDir = migratedDataDir(`kairos-${name}-`);
  return { store: { dataDir }, remove: async () => rmSync(dataDir, { recursive: true, force: true }) };
}

/** The public API of a started server as its demo workspace's key calls it: status and JSON body. */
export function demoApi(started: Started) {
  const { base, demo } = started;
  if (!demo) throw new Error('the server printed no demo workspace (only a first start seeds one)');
  return async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}/api/public/v2${route}`, {
      method,
      headers: {
        authorization: `Bearer ${demo.apiKey}`,
        workspace: demo.slug,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the tests read field by field.
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
}
