import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A real Radicale (Debian's package) for one test file: a free loopback port, a temporary
 * storage folder and a plain htpasswd file with one user. It fails loudly when Radicale is not
 * installed (`.ci/run` installs it), so a CI without it cannot pass by skipping.
 */
export interface Radicale {
  /** http://127.0.0.1:<port>/ */
  url: string;
  user: string;
  password: string;
  /** The storage folder (collection-root/<user>/<calendar>/ holds one .ics per object). */
  storage: string;
  /** Creates a calendar collection `<user>/<name>/` and returns its URL. */
  makeCalendar(name: string, displayName?: string): Promise<string>;
  /** Puts an object; returns its URL and ETag. */
  put(calendarUrl: string, fileName: string, ics: string): Promise<{ url: string; etag: string | null }>;
  remove(objectUrl: string): Promise<void>;
  stop(): Promise<void>;
}

export const RADICALE_BIN = '/usr/bin/radicale';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export async function startRadicale(user = 'anna', password = 'app-password-1'): Promise<Radicale> {
  if (!existsSync(RADICALE_BIN)) {
    throw new Error(`Radicale is not installed (${RADICALE_BIN}): apt-get install radicale`);
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-radicale-'));
  const storage = path.join(dir, 'storage');
  mkdirSync(storage);
  const users = path.join(dir, 'users');
  writeFileSync(users, `${user}:${password}\n`);
  const port = await freePort();
  const child: ChildProcess = spawn(
    RADICALE_BIN,
    [
      '--server-hosts',
      `127.0.0.1:${port}`,
      '--storage-filesystem-folder',
      storage,
      '--auth-type',
      'htpasswd',
      '--auth-htpasswd-filename',
      users,
      '--auth-htpasswd-encryption',
      'plain',
      '--rights-type',
      'owner_only',
      '--logging-level',
      'info',
      '--config',
      '',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (/Listening on|Radicale server ready/i.test(log)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`Radicale exited (${code}) before listening:\n${log}`)));
  });
  const url = `http://127.0.0.1:${port}/`;
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  return {
    url,
    user,
    password,
    storage,
    async makeCalendar(name, displayName = name) {
      const calendarUrl = `${url}${user}/${name}/`;
      const response = await fetch(calendarUrl, {
        method: 'MKCOL',
        headers: { authorization: auth, 'content-type': 'application/xml' },
        body: `<?xml version="1.0"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>${displayName}</d:displayname><c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set></d:prop></d:set></d:mkcol>`,
      });
      if (response.status !== 201)
        throw new Error(`MKCOL ${calendarUrl}: ${response.status} ${await response.text()}`);
      return calendarUrl;
    },
    async put(calendarUrl, fileName, ics) {
      const objectUrl = `${calendarUrl}${fileName}`;
      const response = await fetch(objectUrl, {
        method: 'PUT',
        headers: { authorization: auth, 'content-type': 'text/calendar; charset=utf-8' },
        body: ics,
      });
      if (response.status !== 201 && response.status !== 204)
        throw new Error(`PUT ${objectUrl}: ${response.status} ${await response.text()}`);
      return { url: objectUrl, etag: response.headers.get('etag') };
    },
    async remove(objectUrl) {
      const response = await fetch(objectUrl, { method: 'DELETE', headers: { authorization: auth } });
      if (response.status !== 200 && response.status !== 204)
        throw new Error(`DELETE ${objectUrl}: ${response.status}`);
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What a proxy does with one request: pass it on, answer itself, or drop the connection. */
export type ProxyDecision = 'pass' | 'drop' | { status: number; body: string };

/**
 * A loopback proxy of ours in front of a Radicale, for failures Radicale does not make by itself:
 * `decide` sees each request (method, path, body) and may answer it or drop the connection
 * (a server going away mid-sync). Redirects keep pointing at the proxy.
 */
export async function radicaleProxy(
  radicale: Radicale,
  decide: (req: http.IncomingMessage, body: string) => ProxyDecision = () => 'pass',
): Promise<{ url: string; close: () => Promise<void>; setDecide(next: typeof decide): void }> {
  const target = new URL(radicale.url);
  let current = decide;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const decision = current(req, body);
      if (decision === 'drop') {
        req.socket.destroy();
        return;
      }
      if (decision !== 'pass') {
        res.writeHead(decision.status, { 'content-type': 'application/xml' });
        res.end(decision.body);
        return;
      }
      const upstream = http.request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          const headers = { ...up.headers };
          if (headers.location) headers.location = headers.location.replace(radicale.url, '/');
          res.writeHead(up.statusCode ?? 502, headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => req.socket.destroy());
      upstream.end(body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`,
    setDecide(next) {
      current = next;
    },
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
