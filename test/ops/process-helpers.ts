import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ROOT } from '../helpers/server-process.js';

/** Helpers for tests that run the CLI as a real process (dist/) beside a server. */

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of the CLI on the embedded store in dataDir. */
function embeddedEnv(dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  return env;
}

/** `node dist/src/cli/main.js ...args` on the embedded store in dataDir. */
export function runCliProcess(dataDir: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'cli', 'main.js'), ...args], {
      cwd: ROOT,
      env: embeddedEnv(dataDir),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The CLI's error document: the last line of stderr. */
export function cliError(result: CliResult): {
  code: string;
  message: string;
  errors?: Record<string, string[]>;
} {
  const lines = result.stderr.trim().split('\n');
  return (JSON.parse(lines[lines.length - 1]!) as { error: { code: string; message: string } }).error;
}

/** Every file under dir with its size and mtime: equal snapshots mean nothing was written. */
export function snapshotFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const stat = statSync(full);
        out[path.relative(dir, full)] = `${stat.size}@${stat.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return out;
}

export interface HeldRequest {
  /** The server has read the request head and answered "100 Continue": the request is in flight. */
  accepted: Promise<void>;
  response: Promise<{ status: number; body: string }>;
  /** Sends the body (if any) and ends the request. */
  finish(): void;
}

/**
 * A request made with `Expect: 100-continue`, on its own connection. Node's HTTP server answers
 * "100 Continue" once it has parsed the head and handed the request to the app, which tells the test,
 * without sleeping, that the request is in flight; a body can then be held back until the test
 * chooses to send it.
 */
export function heldRequest(
  base: string,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: unknown,
): HeldRequest {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const request = http.request(new URL(urlPath, base), {
    method,
    agent: false,
    headers: {
      ...headers,
      expect: '100-continue',
      ...(payload === undefined
        ? {}
        : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
    },
  });
  const accepted = new Promise<void>((resolve) => request.once('continue', () => resolve()));
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
  });
  if (payload === undefined) request.end();
  else request.flushHeaders();
  return {
    accepted,
    response,
    finish: () => {
      if (payload !== undefined) request.end(payload);
    },
  };
}
