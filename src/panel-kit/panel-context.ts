import type { FastifyRequest } from 'fastify';
import type { RequestContext } from '../workspaces/request-context.js';
import { forbidden } from './panel-auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in member's request context: their workspace's row, themselves as the actor,
     * the clock's `now` when the request arrived and the link base. The panel surface sets it on
     * every request with a session (src/app/panel/panel.plugin.ts); the workspace row is read on
     * first use and once, so pages that do not need it cost no query.
     */
    panelContext: (() => Promise<RequestContext>) | undefined;
  }
}

/** The request context of a panel route that is not public (the session hook guarantees one). */
export function panelContextOf(request: FastifyRequest): Promise<RequestContext> {
  if (!request.panelContext) throw forbidden();
  return request.panelContext();
}
