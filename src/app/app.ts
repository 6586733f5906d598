import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import { type Config, publicBaseUrl } from '../config.js';
import type { InvalidationBus } from '../platform/bus/invalidation-bus.js';
import type { Database } from '../platform/db/client.js';
import { projectRoot } from '../platform/db/project-root.js';
import { registerDrain } from '../platform/http/drain.js';
import { clientErrorHandler, frameworkErrors, registerJsonErrors } from '../platform/http/errors.js';
import { registerLingeringClose } from '../platform/http/lingering-close.js';
import { registerRequestIdHeader, requestIdOf } from '../platform/http/request-id.js';
import { registerHtmlSecurityHeaders } from '../platform/http/security-headers.js';
import { type ApiApp, type AppDeps, type Clock, systemClock } from '../platform/http/types.js';
import { registerValidation } from '../platform/http/validator.js';
import { registerHttpMetrics, registerMetricsRoute } from '../platform/metrics/endpoint.js';
import { RELEASE_VERSION } from '../version.js';
import { openWritePath } from '../write-path.js';
import { API_PREFIX, apiSurface } from './api/api.plugin.js';
import { icalSurface } from './ical/ical.plugin.js';
import { PANEL_PREFIX, panelSurface } from './panel/panel.plugin.js';
import { paymentHooksSurface } from './payment-hooks/payment-hooks.plugin.js';
import { siteSurface } from './site/site.plugin.js';
import { textHooksSurface } from './text-hooks/text-hooks.plugin.js';
import { widgetSurface } from './widget/widget.plugin.js';

export { API_PREFIX };

export interface BuildAppOptions {
  database: Database;
  config: Config;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** Pushes slot-cache invalidations between processes; without it versions are read from the store. */
  bus?: InvalidationBus;
}

/**
 * Builds the whole HTTP app: the shared parts (validation, body parsing, OpenAPI, health) and the
 * surfaces, each an encapsulated plugin with its own auth and error rendering (docs/architecture.md).
 * main.ts listens; tests inject.
 */
export async function buildApp(options: BuildAppOptions): Promise<ApiApp> {
  let server: Server | undefined;
  let listeningBase: string | undefined;
  const deps: AppDeps = {
    database: options.database,
    db: options.database.db,
    ...openWritePath(options.database.db, options.bus, () => (options.clock ?? systemClock).now()),
    clock: options.clock ?? systemClock,
    config: options.config,
    linkBase: () => {
      if (listeningBase !== undefined) return listeningBase;
      const address = server?.listening ? server.address() : null;
      const base = publicBaseUrl(
        options.config,
        typeof address === 'object' && address ? address.port : undefined,
      );
      // Every request asks; once the server listens its port is fixed, so the answer is kept
      // instead of asking the socket (a system call) each time. Before listening (an injected
      // request) there is no port yet, and nothing is kept.
      if (address) listeningBase = base;
      return base;
    },
  };
  const loggerOption =
    options.logger && typeof (options.logger as FastifyBaseLogger).info === 'function'
      ? { loggerInstance: options.logger as FastifyBaseLogger }
      : { logger: (options.logger as FastifyServerOptions['logger']) ?? false };
  const app = Fastify({
    ...loggerOption,
    bodyLimit: 256 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: requestIdOf,
    // Shutdown (src/platform/http/drain.ts): idle keep-alive connections close at
    // once; a request arriving on a busy one while draining is answered, not refused with
    // Fastify's own 503 body.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    // Errors raised before routing, or by Node's HTTP parser, in our JSON shape (errors.ts).
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<TypeBoxTypeProvider>();
  server = app.server;
  // A 413 (or any answer that closes the connection) reaches the client still sending its body.
  registerLingeringClose(app.server);
  registerRequestIdHeader(app);
  registerHttpMetrics(app);
  const drain = registerDrain(app);

  app.decorate('publicUrl', options.config.publicUrl?.replace(/\/+$/, ''));
  // Outside every surface (unknown paths, /health, framework errors before routing): JSON.
  registerJsonErrors(app);
  registerValidation(app);
  await app.register(formbody);
  // Pages, scripts, JSON and feeds leave compressed when the client accepts it (brotli, else
  // gzip): the byte budgets of the pages hold on the wire without a compressing proxy. Bodies
  // under 1 kB gain nothing. Request bodies are never inflated: a compressed upload is refused
  // as today, so the body limit keeps meaning what reaches the parser.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024, globalDecompression: false });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kairos public API',
        version: RELEASE_VERSION,
        description:
          'Online-booking API. Every request needs `Authorization: Bearer secret_...` and `Workspace: <slug>`.',
      },
      servers: [{ url: API_PREFIX }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          workspace: { type: 'apiKey', in: 'header', name: 'Workspace' },
        },
      },
      security: [{ bearer: [], workspace: [] }],
    },
    // Only the public API is documented; the panel and the booking page are HTML surfaces.
    transform: ({ schema, url }) => ({
      schema: url.startsWith(API_PREFIX) ? schema : { ...schema, hide: true },
      url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url,
    }),
  });
  // The docs page is HTML: its own scope carries the strict CSP every page gets. Swagger UI
  // injects one fixed <style> element; its hash is allowed (test/pages/docs.page.test.ts fails if
  // an upgrade changes it).
  await app.register(async (docs) => {
    await registerHtmlSecurityHeaders(docs, {
      styleHashes: ["'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"],
    });
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      uiConfig: { url: `${API_PREFIX}/openapi.json`, validatorUrl: null },
    });
  });
  registerMetricsRoute(app, options.config);

  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    const ok = !drain.draining && (await deps.database.ping());
    if (ok) return reply.send({ status: 'ok' });
    const [status, message] = drain.draining
      ? ['draining', 'The server is shutting down.']
      : ['unavailable', 'The store is unreachable.'];
    return reply
      .status(503)
      .header('retry-after', '5')
      .send({ status, message, code: 'service_unavailable' });
  });

  // Island bundles of the HTML surfaces, built by `npm run build` (scripts/build-islands.mjs).
  const assets = path.join(projectRoot(), 'dist', 'public');
  if (existsSync(assets)) {
    await app.register(fastifyStatic, { root: assets, prefix: '/assets/', maxAge: '1h', index: false });
  }

  await app.register((api) => apiSurface(api, deps), { prefix: API_PREFIX });
  await app.register((panel) => panelSurface(panel, deps), { prefix: PANEL_PREFIX });
  await app.register((widget) => widgetSurface(widget, deps));
  await app.register((ical) => icalSurface(ical, deps));
  await app.register((hooks) => textHooksSurface(hooks, deps));
  await app.register((hooks) => paymentHooksSurface(hooks, deps));
  await app.register((site) => siteSurface(site, deps));
  return app as unknown as ApiApp;
}
