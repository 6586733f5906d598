import type { WorkspaceRow } from './workspaces.repository.js';

/**
 * Who made a change: recorded in a booking's history and the audit log, and handed to every
 * service write. `cli`: an operator's command (src/cli/).
 */
export interface Actor {
  type: 'api_key' | 'user' | 'system' | 'cli';
  id: string | null;
}

/**
 * What every service call of a request needs to know about it: the workspace it acts in, who
 * acts, the clock's `now` when the request arrived, and the base of absolute links
 * (src/config.ts publicBaseUrl, never the request's Host). Each surface builds it once per
 * request in its own hook (the API's key check, the panel's session check), so no route
 * assembles it by hand.
 */
export interface RequestContext {
  workspace: WorkspaceRow;
  actor: Actor;
  now: number;
  linkBase: string;
}

/** Who is calling the public API: set by its key check on every /api/public/v2 route. */
export interface AuthContext {
  workspace: WorkspaceRow;
  apiKeyId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
    /** The API's request context, built once by the surface after the key check. */
    context: RequestContext;
  }
}
