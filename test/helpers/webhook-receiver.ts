import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request as a receiver saw it: raw body (what the signature covers) and lower-cased headers. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** webhook-id */
  id: string;
  /** webhook-attempt (1 = first) */
  attempt: number;
  json(): Record<string, unknown>;
}

/** How to answer one request: a status (with headers/body), or 'hang' to never answer. */
export type ReceiverReply = { status: number; headers?: Record<string, string>; body?: string } | 'hang';
export type Responder = (request: ReceivedRequest, index: number) => ReceiverReply;

const ok: Responder = () => ({ status: 200, body: 'ok' });

/**
 * A real HTTP receiver on 127.0.0.1 (random port) that records every request, answers as the test
 * says, and lets a test await the n-th request instead of sleeping. It can go down and come back
 * on the same port (a receiver that is down gets its events later).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  respond: Responder;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private waiters: { count: number; resolve: () => void }[] = [];
  private port = 0;

  private constructor(respond: Responder) {
    this.respond = respond;
  }

  static async start(respond: Responder = ok): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(respond);
    await receiver.listen();
    return receiver;
  }

  /** The URL to register as the webhook target. */
  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks/kairos`;
  }

  /** Resolves with all requests once at least `count` have arrived. */
  waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedRequest[]> {
    if (this.requests.length >= count) return Promise.resolve(this.requests);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`receiver got ${this.requests.length} of ${count} requests`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.requests);
        },
      });
    });
  }

  /** Receipts per webhook-id and attempt: any value above 1 is an attempt sent twice. */
  receiptCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const request of this.requests) {
      const key = `${request.id}#${request.attempt}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  /** Goes down: stops listening and drops open connections (hanging ones included). */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Comes back on the same port. */
  async restart(): Promise<void> {
    await this.listen(this.port);
  }

  close(): Promise<void> {
    return this.stop();
  }

  private async listen(port = 0): Promise<void> {
    const server = createServer((incoming, response) => {
      void readBody(incoming).then((body) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (typeof value === 'string') headers[name] = value;
        }
        const request: ReceivedRequest = {
          method: incoming.method ?? '',
          path: incoming.url ?? '',
          headers,
          body,
          id: headers['webhook-id'] ?? '',
          attempt: Number(headers['webhook-attempt'] ?? 0),
          json: () => JSON.parse(body) as Record<string, unknown>,
        };
        const index = this.requests.push(request) - 1;
        const reply = this.respond(request, index);
        this.notify();
        if (reply === 'hang') return;
        response.writeHead(reply.status, reply.headers ?? {});
        response.end(reply.body ?? '');
      });
    });
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  private notify(): void {
    const ready = this.waiters.filter((waiter) => this.requests.length >= waiter.count);
    this.waiters = this.waiters.filter((waiter) => this.requests.length < waiter.count);
    for (const waiter of ready) waiter.resolve();
  }
}

function readBody(incoming: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    incoming.on('error', reject);
  });
}

/**
 * Verifies a received request with the standardwebhooks library, as a receiver would. The
 * library checks webhook-timestamp against Date.now() (5-minute tolerance); tests that move an
 * injected clock pass that clock's `now` so the check happens at the time the worker sent it.
 * Throws WebhookVerificationError when no signature matches.
 */
export function verifyReceived(secret: string, request: ReceivedRequest, now: number = Date.now()): unknown {
  const realNow = Date.now;
  Date.now = () => now;
  try {
    return new Webhook(secret).verify(request.body, request.headers);
  } finally {
    Date.now = realNow;
  }
}
