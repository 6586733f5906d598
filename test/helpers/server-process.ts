import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';

/**
 * The built server (`node dist/src/main.js`) as a child process, for tests over a real socket:
 * on the embedded store in a DATA_DIR or on a PostgreSQL database. (test/ops/process-helpers.ts
 * has an embedded-only variant with info logs; this one takes either store and logs nothing.)
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Builds dist/ when it is older than the sources, exactly as `npm start` would. */
export async function ensureServerBuilt(): Promise<void> {
  const prepare = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'prepare.mjs')).href)) as {
    ensureBuilt(): void;
  };
  prepare.ensureBuilt();
}

export type Store = { databaseUrl: string } | { dataDir: string };

export interface Started {
  /** e.g. http://127.0.0.1:41234 */
  base: string;
  /** Present on the first start of an empty store, which seeds the demo workspace. */
  demo?: { slug: string; apiKey: string };
}

export class ServerProcess {
  private readonly child: ChildProcess;
  private output = '';
  private readonly exited: Promise<void>;
  /** Resolves once the start-up banner is out (it is printed after listen). */
  readonly started: Promise<Started>;

  constructor(store: Store) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      WORKER: 'off',
      LOG_LEVEL: 'silent',
    };
    for (const name of ['DATABASE_URL', 'DATA_DIR', 'TEST_DATABASE_URL', 'PUBLIC_URL']) delete env[name];
    if ('databaseUrl' in store) env.DATABASE_URL = store.databaseUrl;
    else env.DATA_DIR = store.dataDir;
    this.child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.setEncoding('utf8');
    this.child.stderr!.setEncoding('utf8');
    this.exited = new Promise((resolve) => this.child.once('close', () => resolve()));
    this.started = new Promise((resolve, reject) => {
      let done = false;
      this.child.stdout!.on('data', (chunk: string) => {
        this.output += chunk;
        // The banner (API line, then the demo workspace if any) is one small, hence atomic, write.
        const match = /API: +(http:\/\/\S+)\/api\/public\/v2\n[\s\S]*?\n\n/.exec(this.output);
        if (done || !match) return;
        done = true;
        const slug = /Workspace: +(\S+)\n/.exec(this.output)?.[1];
        const apiKey = /API key: +(\S+)\n/.exec(this.output)?.[1];
        resolve({ base: match[1]!, ...(slug && apiKey ? { demo: { slug, apiKey } } : {}) });
      });
      this.child.stderr!.on('data', (chunk: string) => {
        this.output += chunk;
      });
      this.child.once('close', (code, signal) =>
        reject(new Error(`the server exited (${code ?? signal}) before listening:\n${this.output}`)),
      );
    });
    // A test that never awaits `started` (set-up failed elsewhere) must not see an unhandled rejection.
    this.started.catch(() => {});
  }

  /** Everything the process wrote so far (stdout and stderr), for failure messages. */
  get log(): string {
    return this.output;
  }

  /** SIGTERM (graceful: in-flight requests finish, the pool closes); SIGKILL if that hangs. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** A new, empty database on the server of `adminUrl`; `drop` removes it even if still connected. */
export async function createScratchDatabase(adminUrl: string, prefix: string) {
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
