import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
/** An id a proxy or client sent is kept if it is short and plain: it goes into logs and headers. */
const SANE_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** Fastify's genReqId: the caller's X-Request-Id when sane, else a new uuid. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
}

/** Every answer carries its request id; the log lines of the request carry it as `reqId`. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
