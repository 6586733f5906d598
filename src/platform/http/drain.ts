import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

export interface DrainState {
  /** True from the moment app.close() starts until the process exits. */
  readonly draining: boolean;
}

/**
 * While the app closes (issue 18 §6): every answer says `Connection: close`, so a keep-alive
 * connection that was busy when the drain began closes after its answer instead of idling until
 * the keep-alive timeout and holding the process; /health reads `draining` to turn load
 * balancers away. Requests still arriving on an open connection are answered, not refused.
 */
export function registerDrain(app: FastifyInstance): DrainState {
  const state = { draining: false };
  app.addHook('preClose', async () => {
    state.draining = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (state.draining) reply.header('connection', 'close');
    return payload;
  });
  return state;
}

/**
 * Lets the event loop accept the connections the kernel has already queued for `server`, and
 * read the requests they have already sent, before the listener closes. Otherwise close() resets
 * them: a queued connection is refused with the socket, and Node's server.close() destroys every
 * connection with no request parsed yet as "idle" — which is what a client that connected just
 * before SIGTERM looks like. Ends after `quietMs` without a new connection or request, or at `maxMs`.
 */
export async function settleAccepts(server: Server, quietMs = 30, maxMs = 1_000): Promise<void> {
  let events = 0;
  const count = () => {
    events += 1;
  };
  server.on('connection', count);
  server.on('request', count);
  const started = Date.now();
  try {
    let seen = -1;
    while (seen !== events && Date.now() - started < maxMs) {
      seen = events;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
    }
  } finally {
    server.off('connection', count);
    server.off('request', count);
  }
}
