import type { FastifyInstance } from 'fastify';
import { notFound } from '../../errors.js';
import type { AppDeps } from '../../platform/http/types.js';
import { renderFeed } from '../calendar-feeds.service.js';

/**
 * GET /ical/<token>.ics: a calendar feed (docs/calendar-feeds.md). No auth but the token; every
 * token that opens no feed (malformed, unknown, regenerated) answers the same 404.
 */
export function calendarFeedRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Params: { file: string } }>('/ical/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    const token = file.endsWith('.ics') ? file.slice(0, -'.ics'.length) : undefined;
    const body = token && (await renderFeed(deps.db, token, deps.clock.now(), deps.linkBase()));
    if (!body) throw notFound('Calendar feed');
    return (
      reply
        .type('text/calendar; charset=utf-8')
        // Calendars poll the URL; each poll reads the bookings as they are now.
        .header('cache-control', 'no-cache, private')
        .header('x-robots-tag', 'noindex')
        .header('referrer-policy', 'no-referrer')
        .send(body)
    );
  });
}
