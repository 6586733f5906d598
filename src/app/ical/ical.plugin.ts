import type { FastifyError, FastifyInstance } from 'fastify';
import { calendarFeedRoutes } from '../../calendar-feeds/ical/calendar-feed.routes.js';
import { tagTenantRequest } from '../../platform/db/statement-recorder.js';
import { toAppError } from '../../platform/http/errors.js';
import { registerPerAddressLimit } from '../../platform/http/rate-limit.js';
import type { AppDeps } from '../../platform/http/types.js';

/**
 * The calendar feed surface (`/ical/<token>.ics`, docs/calendar-feeds.md): public, the token is
 * the only key; per-IP rate limit like the booking page's (WIDGET_REQUESTS_PER_MINUTE); answers
 * are calendars or short plain-text errors, since the readers are calendar apps, not people.
 */
export async function icalSurface(app: FastifyInstance, deps: AppDeps): Promise<void> {
  // A feed request reads one workspace's rows: its statements are checked like the API's.
  app.addHook('onRequest', tagTenantRequest);
  await registerPerAddressLimit(app, deps.config.widgetRequestsPerMinute);
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const mapped = toAppError(error);
    if (mapped.statusCode >= 500) request.log.error({ err: error }, 'calendar feed request failed');
    if (mapped.headers) reply.headers(mapped.headers);
    return reply.status(mapped.statusCode).type('text/plain; charset=utf-8').send(`${mapped.message}\n`);
  });
  calendarFeedRoutes(app, deps);
}
