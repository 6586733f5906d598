import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { settleAccepts } from './drain.js';

/** Blocks this process's event loop, as the embedded store's work or a busy machine does. */
function blockLoop(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy: nothing else runs
  }
}

/** One raw connection that writes a request at once and resolves with what came back. */
function rawRequest(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('error', (error) => {
      answer += `error: ${error.message}`;
    });
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
  });
}

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

describe('settleAccepts', () => {
  it('reads the connections queued while the loop was blocked past maxMs, then close() answers them all', async () => {
    server = http.createServer((_request, response) => {
      setImmediate(() => response.end('ok'));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // Connected in the kernel, not yet accepted: this process has not polled since.
    const answers = Array.from({ length: 20 }, () => rawRequest(port));
    // The loop is blocked for longer than maxMs right after settling starts.
    setTimeout(() => blockLoop(400), 1);
    await settleAccepts(server, 20, 200);
    // What app.close() does: stop listening and destroy connections with no request parsed.
    server.close();
    server.closeIdleConnections();
    expect(await Promise.all(answers)).toEqual(Array.from({ length: 20 }, () => 'HTTP/1.1 200 OK'));
  });

  it('stops waiting for a connection that never sends a request after maxMs', async () => {
    server = http.createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const started = Date.now();
    const settled = settleAccepts(server, 20, 200);
    // Connects once settling has begun, and never sends a request.
    const silent = net.connect(port, '127.0.0.1');
    await settled;
    const waited = Date.now() - started;
    silent.destroy();
    expect(waited).toBeGreaterThanOrEqual(200);
    expect(waited).toBeLessThan(2_000);
  });
});
