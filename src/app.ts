import formbody from '@fastify/formbody';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import { registerAuth } from './auth/auth.hook.js';
import { bookingsRoutes } from './bookings/bookings.routes.js';
import type { Config } from './config.js';
import { customersRoutes } from './customers/customers.routes.js';
import type { Database } from './db/client.js';
import { registerErrorHandling } from './http/errors.js';
import { registerIdempotency } from './http/idempotency.js';
import { type ApiApp, type AppDeps, type Clock, systemClock } from './http/types.js';
import { registerValidation } from './http/validator.js';
import { locationsRoutes } from './locations/locations.routes.js';
import { paymentAccountsRoutes } from './payment-accounts/payment-accounts.routes.js';
import { schedulesRoutes } from './schedules/schedules.routes.js';
import { servicesRoutes } from './services/services.routes.js';
import { slotsRoutes } from './slots/slots.routes.js';
import { bumpAvailabilityVersion } from './slots/slots-cache.js';
import { staffersRoutes } from './staffers/staffers.routes.js';
import { statusesRoutes } from './statuses/statuses.routes.js';
import { RELEASE_VERSION } from './version.js';
import { webhooksRoutes } from './webhooks/webhooks.routes.js';
import { workspacesRoutes } from './workspaces/workspaces.routes.js';

export const API_PREFIX = '/api/public/v2';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface BuildAppOptions {
  database: Database;
  config: Config;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
}

/** Builds the whole HTTP app (API, docs, health); main.ts listens, tests inject. */
export async function buildApp(options: BuildAppOptions): Promise<ApiApp> {
  const deps: AppDeps = {
    database: options.database,
    db: options.database.db,
    clock: options.clock ?? systemClock,
    config: options.config,
  };
  const loggerOption =
    options.logger && typeof (options.logger as FastifyBaseLogger).info === 'function'
      ? { loggerInstance: options.logger as FastifyBaseLogger }
      : { logger: (options.logger as FastifyServerOptions['logger']) ?? false };
  const app = Fastify({
    ...loggerOption,
    bodyLimit: 256 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerErrorHandling(app);
  registerValidation(app);
  await app.register(formbody);
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
    transform: ({ schema, url }) => ({
      schema,
      url: url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url,
    }),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { url: `${API_PREFIX}/openapi.json` },
  });

  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    const ok = await deps.database.ping();
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable' });
  });

  await app.register(
    async (api) => {
      const typed = api as unknown as ApiApp;
      registerAuth(api, deps.db);
      registerIdempotency(api, deps.db);
      // After a write committed, cached slot answers computed before it stop serving.
      api.addHook('onSend', async (request, reply, payload) => {
        if (WRITES.has(request.method) && reply.statusCode < 400) await bumpAvailabilityVersion(deps.db);
        return payload;
      });
      api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () =>
        app.swagger(),
      );
      for (const routes of [
        workspacesRoutes,
        locationsRoutes,
        servicesRoutes,
        staffersRoutes,
        schedulesRoutes,
        paymentAccountsRoutes,
        statusesRoutes,
        slotsRoutes,
        bookingsRoutes,
        customersRoutes,
        webhooksRoutes,
      ]) {
        await routes(typed, deps);
      }
    },
    { prefix: API_PREFIX },
  );
  return app as unknown as ApiApp;
}
