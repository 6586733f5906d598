import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection whose answer went out early may go on sending the body we refused. */
export const LINGER_MS = 5_000;

type ClosingSocket = Socket & { destroySoon(): void };

/**
 * A lingering close, as Apache and nginx do it. Fastify answers a body over `bodyLimit` with 413
 * and `Connection: close` before reading it, and Node's HTTP server then closes the socket as soon
 * as the answer is written (`socket.destroySoon()`). The client is still sending: the kernel meets
 * the unread bytes with a reset, and the client sees EPIPE or ECONNRESET, often without the 413
 * that already reached it (a 5 MB body always did on loopback).
 *
 * So when a connection is to be closed while its request body is still arriving, the close waits
 * until the body has arrived, read and discarded (the answer is out and says `Connection: close`),
 * or until LINGER_MS have passed, so an endless body cannot hold the connection (nginx's
 * lingering_time, Apache's lingering close). A request whose body was read whole closes at once,
 * as before. Node's parser drops a dumped body without 'data' events, so it is not counted: at most
 * LINGER_MS of input is read for nothing.
 */
export function registerLingeringClose(server: Server, lingerMs = LINGER_MS): void {
  const current = new WeakMap<Socket, IncomingMessage>();
  server.on('request', (request: IncomingMessage) => current.set(request.socket, request));
  server.on('connection', (socket: Socket) => {
    const closing = socket as ClosingSocket;
    const destroySoon = closing.destroySoon;
    // Node's HTTP server ends a `Connection: close` exchange through this (lib/_http_server.js).
    closing.destroySoon = function lingeringDestroySoon(this: ClosingSocket) {
      const request = current.get(this);
      if (!request || request.complete || this.destroyed) {
        destroySoon.call(this);
        return;
      }
      linger(this, request, lingerMs, () => destroySoon.call(this));
    };
  });
}

function linger(socket: Socket, request: IncomingMessage, lingerMs: number, close: () => void): void {
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    if (!socket.destroyed) close();
  };
  const timer = setTimeout(finish, lingerMs);
  timer.unref();
  request.once('end', finish);
  request.once('error', finish);
  socket.once('close', finish);
  // Flowing already when Node dumps the unread body; when a parser stopped reading it, not.
  request.resume();
}
