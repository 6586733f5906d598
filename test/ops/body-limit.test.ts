import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureServerBuilt,
  ownStore,
  ServerProcess,
  type Started,
  type Store,
} from '../helpers/server-process.js';

/**
 * A body over the 256 kB limit is answered 413 `payload_too_large`, and the client reads that
 * answer: the server reads and discards the rest of the body before it closes the connection
 * (platform/http/lingering-close.ts). Closing at once made a client writing 5 MB fail with EPIPE
 * and never see the 413. The built server as a process, a Node HTTP client, a real socket.
 */
const API = '/api/public/v2';
const storeName = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const FIVE_MB = Buffer.alloc(5 * 1024 * 1024, 'a');

let store: Store;
let removeStore: () => Promise<void>;
let server: ServerProcess;
let started: Started;

interface Outcome {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: string;
  /** A socket error the client saw: sending the body, or before it had the whole answer. */
  error?: string;
}

/**
 * One request on its own connection, its body written in 64 kB pieces as a client streams a
 * file, each after the last was taken (so the answer arrives while most of the body is still to
 * be sent); `chunked` sends no Content-Length, so the limit is passed while the body arrives.
 * Resolves once the connection is closed, with the answer and any error the client met.
 */
function post(
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  chunked: boolean,
): Promise<Outcome> {
  const { port } = new URL(started.base);
  const outcome: Outcome = {};
  const request = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path,
    agent: false,
    headers: {
      'content-type': 'application/json',
      ...headers,
      ...(chunked ? {} : { 'content-length': String(body.length) }),
    },
  });
  const answered = new Promise<void>((resolve) => {
    request.on('response', (response) => {
      outcome.status = response.statusCode;
      outcome.headers = response.headers;
      outcome.body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        outcome.body += chunk;
      });
      response.on('end', resolve);
      response.on('error', resolve);
    });
  });
  const closed = new Promise<void>((resolve) => request.on('close', resolve));
  request.on('error', (error: NodeJS.ErrnoException) => {
    outcome.error ??= error.code ?? String(error);
  });
  const send = async () => {
    for (let at = 0; at < body.length && !outcome.error; at += 65_536) {
      if (!request.write(body.subarray(at, at + 65_536))) {
        await Promise.race([new Promise((resolve) => request.once('drain', resolve)), closed]);
      }
    }
    request.end();
  };
  return Promise.all([send(), closed]).then(async () => {
    if (outcome.status !== undefined) await answered;
    return outcome;
  });
}

describe(`a body over the limit (${storeName})`, () => {
  beforeAll(async () => {
    await ensureServerBuilt();
    ({ store, remove: removeStore } = await ownStore('bodylimit'));
    server = new ServerProcess(store);
    started = await server.started;
  }, 300_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await removeStore?.();
  });

  const auth = () => ({ authorization: `Bearer ${started.demo!.apiKey}`, workspace: started.demo!.slug });

  for (const chunked of [false, true]) {
    it(`5 MB with ${chunked ? 'chunked encoding' : 'Content-Length'}: the client reads 413 payload_too_large`, async () => {
      for (let round = 0; round < 3; round++) {
        const outcome = await post(`${API}/locations`, auth(), FIVE_MB, chunked);
        expect(outcome.error, JSON.stringify(outcome)).toBeUndefined();
        expect(outcome.status).toBe(413);
        expect(JSON.parse(outcome.body!)).toEqual({ message: expect.any(String), code: 'payload_too_large' });
        expect(outcome.headers!.connection).toBe('close');
      }
    });
  }

  it('5 MB with a wrong key: 403 read by the client; the server serves on', async () => {
    const outcome = await post(
      `${API}/locations`,
      { authorization: `Bearer secret_${'a'.repeat(43)}`, workspace: started.demo!.slug },
      FIVE_MB,
      false,
    );
    expect(outcome.error, JSON.stringify(outcome)).toBeUndefined();
    expect(outcome.status).toBe(403);
    const small = await post(
      `${API}/locations`,
      auth(),
      Buffer.from(JSON.stringify({ name: 'After', timezone: 'UTC' })),
      false,
    );
    expect(small.status, small.body).toBe(201);
    expect(server.running).toBe(true);
  });
});
