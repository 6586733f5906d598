import type { FastifyRequest } from 'fastify';
import { notFound } from '../../errors.js';
import type { Actor, RequestContext } from '../../workspaces/request-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The booking page's request context: the workspace of /book/<slug>, the customer as the
     * actor, the clock's `now` when the request arrived and the link base. The booking page
     * surface sets it on every request with a slug (src/app/widget/widget.plugin.ts); the
     * workspace is read on first use and once, so pages that do not write cost no query.
     */
    widgetContext: (() => Promise<RequestContext>) | undefined;
  }
}

/**
 * Who acts on the booking page: the customer, who has no account, so the booking's history
 * records the system with no id.
 */
export const CUSTOMER: Actor = { type: 'system', id: null };

/** The request context of a booking page route (one with a slug, which the surface's hook guarantees). */
export function widgetContextOf(request: FastifyRequest): Promise<RequestContext> {
  if (!request.widgetContext) throw notFound('Booking page');
  return request.widgetContext();
}
