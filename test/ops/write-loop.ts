import http from 'node:http';

/**
 * A steady request load against a running server, for the outage and drain tests: `writers`
 * concurrent loops, each sending its next request as soon as the previous one is answered, and a
 * record of every answer (or transport failure) with when its request was written and answered.
 */
export interface Reply {
  status: number;
  body: Record<string, unknown> | undefined;
  headers: http.IncomingHttpHeaders;
}

export interface Answer extends Partial<Reply> {
  kind: string;
  /** 0 = no HTTP answer (reset, refused, closed). */
  status: number;
  /** When the request's last byte was handed to the kernel (undefined: never written). */
  writtenAt: number | undefined;
  at: number;
  error?: string;
}

/** One request on `agent` (false: a connection of its own); `written` is set once it is on a connected socket. */
export function call(
  agent: http.Agent | false,
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): { written: () => number | undefined; reply: Promise<Reply> } {
  let writtenAt: number | undefined;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const reply = new Promise<Reply>((resolve, reject) => {
    const request = http.request(new URL(path, base), {
      method,
      agent,
      headers: {
        ...headers,
        ...(payload === undefined
          ? {}
          : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
      },
    });
    // Written = the request is flushed to a connected socket (the server's kernel has accepted
    // the connection); 'finish' alone may come while the socket is still connecting.
    let flushed = false;
    let connected = false;
    const mark = () => {
      if (flushed && connected && writtenAt === undefined) writtenAt = Date.now();
    };
    request.on('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else
        socket.once('connect', () => {
          connected = true;
          mark();
        });
      mark();
    });
    request.on('finish', () => {
      flushed = true;
      mark();
    });
    request.on('error', reject);
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('error', reject);
      response.on('end', () => {
        let parsed: Record<string, unknown> | undefined;
        try {
          parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
        } catch {
          parsed = { raw: text };
        }
        resolve({ status: response.statusCode ?? 0, body: parsed, headers: response.headers });
      });
    });
    request.end(payload);
  });
  return { written: () => writtenAt, reply };
}

export type Send = (writer: number, iteration: number) => { kind: string; request: ReturnType<typeof call> };

export class WriteLoop {
  readonly answers: Answer[] = [];
  private running = true;
  private readonly loops: Promise<void>[];
  private readonly waiters = new Set<() => void>();

  constructor(writers: number, send: Send) {
    this.loops = Array.from({ length: writers }, async (_, writer) => {
      for (let iteration = 0; this.running; iteration++) {
        const { kind, request } = send(writer, iteration);
        let answer: Answer;
        try {
          const reply = await request.reply;
          answer = { kind, ...reply, writtenAt: request.written(), at: Date.now() };
        } catch (error) {
          answer = { kind, status: 0, writtenAt: request.written(), at: Date.now(), error: String(error) };
          // A refused connection fails at once; do not spin on it.
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        this.answers.push(answer);
        for (const waiter of this.waiters) waiter();
      }
    });
  }

  get successes(): Answer[] {
    return this.answers.filter(isSuccess);
  }

  /** Resolves with the first answer (from now on or already recorded) that matches. */
  waitFor(match: (answer: Answer) => boolean, timeoutMs = 30_000): Promise<Answer> {
    return this.until(() => this.answers.find(match), timeoutMs);
  }

  /** Resolves once `count` successes have been recorded in all. */
  waitForSuccesses(count: number, timeoutMs = 30_000): Promise<Answer> {
    return this.until(() => this.successes[count - 1], timeoutMs);
  }

  /** Stops sending; resolves once every loop's last request is answered. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** Re-evaluates `probe` after every answer until it returns something. */
  private until<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = probe();
        if (found === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        const last = this.answers.slice(-5).map((a) => `${a.kind} ${a.status} ${a.error ?? ''}`);
        reject(new Error(`not reached within ${timeoutMs} ms; last answers: ${last.join('; ')}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}

export function isSuccess(answer: Answer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

export function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
