import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bookingsRoutes } from '../../bookings/api/bookings.routes.js';
import { bookingsCompatRoutes } from '../../bookings/api/bookings-compat.routes.js';
import { calendarSyncRoutes } from '../../calendar-sync/api/calendar-sync.routes.js';
import { customersRoutes } from '../../customers/api/customers.routes.js';
import { customersCreateRoutes } from '../../customers/api/customers-create.routes.js';
import { locationsRoutes } from '../../locations/api/locations.routes.js';
import { ordersRoutes } from '../../orders/api/orders.routes.js';
import { paymentAccountsRoutes } from '../../payment-accounts/api/payment-accounts.routes.js';
import { paymentsRoutes } from '../../payments/api/payments.routes.js';
import { tagTenantRequest } from '../../platform/db/statement-recorder.js';
import { registerJsonErrors } from '../../platform/http/errors.js';
import { registerRateLimit } from '../../platform/http/rate-limit.js';
import { registerApiSecurityHeaders } from '../../platform/http/security-headers.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { resourcesRoutes } from '../../resources/api/resources.routes.js';
import { schedulesRoutes } from '../../schedules/api/schedules.routes.js';
import { seriesRoutes } from '../../series/api/series.routes.js';
import { serviceCategoriesRoutes } from '../../services/api/service-categories.routes.js';
import { servicesRoutes } from '../../services/api/services.routes.js';
import { slotsRoutes } from '../../slots/api/slots.routes.js';
import { staffersRoutes } from '../../staffers/api/staffers.routes.js';
import { statusesRoutes } from '../../statuses/api/statuses.routes.js';
import { voucherTemplatesRoutes } from '../../vouchers/api/voucher-templates.routes.js';
import { waitlistRoutes } from '../../waitlist/api/waitlist.routes.js';
import { webhooksRoutes } from '../../webhooks/api/webhooks.routes.js';
import { workspacesRoutes } from '../../workspaces/api/workspaces.routes.js';
import { registerAuth } from './api-auth.js';
import { registerQueryInput } from './query-input.js';

export const API_PREFIX = '/api/public/v2';

/**
 * The public API surface, mounted at /api/public/v2 as one encapsulated plugin: API key +
 * `Workspace` header auth, JSON errors. Feature routes register inside it; nothing
 * here is seen by the panel or the booking page.
 */
export async function apiSurface(api: FastifyInstance, deps: AppDeps): Promise<void> {
  const typed = api as unknown as ApiApp;
  registerJsonErrors(api);
  // First: every statement of the request, the auth lookup included, is tagged for the one-workspace check.
  api.addHook('onRequest', tagTenantRequest);
  registerAuth(api, deps.db, deps.clock, { failuresPerMinute: deps.config.apiAuthFailuresPerMinute });
  // The context every service call of the request gets, built once here and not in each route.
  api.decorateRequest('context', null as unknown as FastifyRequest['context']);
  api.addHook('onRequest', (request, _reply, done) => {
    if (request.auth) {
      request.context = {
        workspace: request.auth.workspace,
        actor: { type: 'api_key', id: request.auth.apiKeyId },
        now: deps.clock.now(),
        linkBase: deps.linkBase(),
      };
    }
    done();
  });
  // Per API key (the auth hook has run); the public OpenAPI document counts per address.
  await registerRateLimit(api, {
    perMinute: deps.config.apiRateLimitPerMinute,
    keyOf: (request) => (request.auth ? `key:${request.auth.apiKeyId}` : `ip:${request.ip}`),
    surface: 'api',
  });
  registerQueryInput(api);
  registerApiSecurityHeaders(api);
  // Idempotency keys and cache invalidation are not hooks here: write routes answer through
  // answerWrite (platform/http/idempotency.ts) and services write through the unit of work, so
  // every surface gets both.
  api.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => api.swagger());
  for (const routes of [
    workspacesRoutes,
    locationsRoutes,
    servicesRoutes,
    staffersRoutes,
    resourcesRoutes,
    schedulesRoutes,
    paymentAccountsRoutes,
    statusesRoutes,
    slotsRoutes,
    bookingsRoutes,
    seriesRoutes,
    waitlistRoutes,
    customersRoutes,
    webhooksRoutes,
    calendarSyncRoutes,
    // Routes integrations of the real service call.
    bookingsCompatRoutes,
    customersCreateRoutes,
    serviceCategoriesRoutes,
    ordersRoutes,
    paymentsRoutes,
    voucherTemplatesRoutes,
  ]) {
    await routes(typed, deps);
  }
}
