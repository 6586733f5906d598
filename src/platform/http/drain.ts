import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface DrainState {
  /** True from the moment app.close() starts until the process exits. */
  readonly draining: boolean;
}

/**
 * While the app closes: every answer says `Connection: close`, so a keep-alive
 * connection that was busy when the drain began closes after its answer instead of idling until
 * the keep-alive timeout and holding the process; /health reads `draining` to turn load
 * balancers away. Requests still arriving on an open connection are answered, not refused.
 */
export function registerDrain(app: FastifyInstance): DrainState {
  const state = { draining: false };
  app.addHook('preClose', async () => {
    state.draining = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (state.draining) reply.header('connection', 'close');
    done(null, payload);
  });
  return state;
}

/**
 * Lets the event loop accept the connections the kernel has already queued for `server`, and
 * read the requests they have already sent, before the listener closes. Otherwise close() resets
 * them: a queued connection is refused with the socket, and Node's server.close() destroys every
 * connection with no request parsed yet as "idle" — which is what a client that connected just
 * before SIGTERM looks like.
 *
 * Ends once every connection accepted meanwhile has sent its request (or closed) and `quietMs`
 * passed without a new one, or after `maxMs` of new connections still coming; a connection that
 * sends nothing is waited for until `maxMs` pass without progress. Requests on connections that
 * were already serving (keep-alive) are in flight already and do not hold the close up.
 *
 * The waiting for a queued connection's request does not stop at `maxMs` from the start: a
 * process whose event loop was blocked past it (the embedded store's work runs on it) wakes with
 * the queued connections not yet read, and must still read them (a red run reset all 60 of a
 * burst that way).
 */
export async function settleAccepts(server: Server, quietMs = 50, maxMs = 3_000): Promise<void> {
  let connections = 0;
  let progress = 0;
  const waitingForRequest = new Set<Socket>();
  const onConnection = (socket: Socket) => {
    connections += 1;
    progress += 1;
    waitingForRequest.add(socket);
    socket.once('close', () => waitingForRequest.delete(socket));
  };
  const onRequest = (request: IncomingMessage) => {
    if (waitingForRequest.delete(request.socket)) progress += 1;
  };
  server.on('connection', onConnection);
  server.on('request', onRequest);
  const started = Date.now();
  let lastProgress = started;
  try {
    for (;;) {
      const connectionsBefore = connections;
      const progressBefore = progress;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
      // A timer runs before the loop's poll phase: on a busy machine the process may wake with the
      // timer already due and queued connections not yet seen. An immediate runs after the poll
      // phase of this turn, so what the kernel queued meanwhile is accepted and read first (a red
      // CI run reset 38 of 60 queued connections without it).
      await new Promise((resolve) => setImmediate(resolve));
      const now = Date.now();
      if (progress !== progressBefore) lastProgress = now;
      if (waitingForRequest.size > 0) {
        if (now - lastProgress >= maxMs) break;
        continue;
      }
      if (connections === connectionsBefore || now - started >= maxMs) break;
    }
  } finally {
    server.off('connection', onConnection);
    server.off('request', onRequest);
  }
}
