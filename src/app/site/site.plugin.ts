import type { FastifyInstance } from 'fastify';
import { registerHtmlSecurityHeaders } from '../../platform/http/security-headers.js';
import type { AppDeps } from '../../platform/http/types.js';
import { frontRoutes } from '../../workspaces/site/front.routes.js';

/**
 * The server's own front page (`/`): public, HTML, no session. Its errors stay the app's JSON
 * ones (the page reads no input).
 */
export async function siteSurface(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await registerHtmlSecurityHeaders(app);
  frontRoutes(app, deps);
}
