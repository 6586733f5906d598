import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { httpDuration, httpRequests, METRICS_CONTENT_TYPE, scrape } from './registry.js';

export interface MetricsOptions {
  metricsToken: string | undefined;
  metricsPort: number | undefined;
  metricsHost: string;
}

/**
 * Counts every answer of `app` by route pattern (never the raw URL: ids would make a series per
 * booking) and status. Unmatched paths share one label.
 */
export function registerHttpMetrics(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}

/** Bearer check in constant time; with no token configured, anyone who reaches the endpoint may read. */
export function metricsAuthorized(authorization: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
  // Hash both sides: timingSafeEqual needs equal lengths, and a length must not leak either.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * `GET /metrics` on the API port, when no METRICS_PORT is set. It needs METRICS_TOKEN: without
 * a token and without a separate port, metrics are not served at all (404), so a server on a
 * public address never shows them by accident.
 */
export function registerMetricsRoute(app: FastifyInstance, options: MetricsOptions): void {
  if (options.metricsPort !== undefined || options.metricsToken === undefined) return;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!metricsAuthorized(request.headers.authorization, options.metricsToken)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ message: 'A valid metrics token is required.', code: 'invalid_token' });
    }
    return reply
      .header('cache-control', 'no-store')
      .type(METRICS_CONTENT_TYPE)
      .send(await scrape());
  });
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on its own port (METRICS_PORT, on METRICS_HOST): for an operator network the API
 * port does not reach, and for the standalone worker, which has no other HTTP server. The token,
 * if set, is required here too.
 */
export async function startMetricsServer(options: MetricsOptions): Promise<MetricsServer | undefined> {
  if (options.metricsPort === undefined) return undefined;
  const server = http.createServer((request, response) => {
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    };
    const json = (status: number, message: string, code: string) =>
      send(status, 'application/json; charset=utf-8', JSON.stringify({ message, code }));
    if (new URL(request.url ?? '/', 'http://x').pathname !== '/metrics')
      return json(404, 'Not found.', 'not_found');
    if (request.method !== 'GET') return json(405, 'Only GET is allowed.', 'method_not_allowed');
    if (!metricsAuthorized(request.headers.authorization, options.metricsToken)) {
      return json(401, 'A valid metrics token is required.', 'invalid_token');
    }
    scrape().then(
      (text) => send(200, METRICS_CONTENT_TYPE, text),
      () => json(500, 'Metrics could not be collected.', 'internal_error'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.metricsPort, options.metricsHost, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
