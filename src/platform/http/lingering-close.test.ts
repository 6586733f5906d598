import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { registerLingeringClose } from './lingering-close.js';

/**
 * The lingering close on a bare Node server that refuses every request at once with 413 and
 * `Connection: close`, as Fastify does past bodyLimit: the connection stays open while the body
 * is still coming, closes as soon as it has come, and is cut off after `lingerMs` however much is
 * still being sent. (test/ops/body-limit.test.ts: the real server, and the client reading its 413.)
 */
let server: http.Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

async function refusingServer(lingerMs: number): Promise<number> {
  server = http.createServer((_request, response) => {
    response.writeHead(413, { connection: 'close', 'content-length': '2' }).end('no');
  });
  registerLingeringClose(server, lingerMs);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/**
 * A raw client announcing `length` bytes and sending them in 64 kB pieces as fast as the server
 * takes them (Node's own client closes its side once it has an answer that says close). Resolves
 * when the server has closed its side (FIN) or reset the connection.
 */
async function send(port: number, length: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n\r\n`);
  const result = { answer: '', error: '', sent: 0, closedAfterMs: 0 };
  const started = performance.now();
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    result.answer += chunk;
  });
  const ended = new Promise<void>((resolve) => {
    socket.once('end', resolve);
    socket.once('close', resolve);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      result.error = error.code ?? String(error);
      resolve();
    });
  });
  let over = false;
  void ended.then(() => {
    over = true;
    result.closedAfterMs = performance.now() - started;
  });
  const piece = Buffer.alloc(64 * 1024);
  while (!over && result.sent < length) {
    const size = Math.min(piece.length, length - result.sent);
    result.sent += size;
    if (!socket.write(piece.subarray(0, size))) {
      await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), ended]);
    }
  }
  await ended;
  socket.destroy();
  return result;
}

describe('lingering close', () => {
  it('reads the rest of a refused 5 MB body, then closes without a reset', async () => {
    const port = await refusingServer(60_000);
    const result = await send(port, 5 * 1024 * 1024);
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.error).toBe('');
    expect(result.sent).toBe(5 * 1024 * 1024);
    // Closed when the body was in, long before the linger time.
    expect(result.closedAfterMs).toBeLessThan(30_000);
  });

  it('cuts off a body that does not end after lingerMs', async () => {
    const port = await refusingServer(500);
    const result = await send(port, 1024 ** 4);
    expect(result.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(450);
    expect(result.closedAfterMs).toBeLessThan(30_000);
    expect(result.sent).toBeLessThan(1024 ** 4);
  });
});
