import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { AppDeps } from '../platform/http/types.js';
import { can, type Permission } from '../users/roles.js';
import { type PanelSession, resolveSession, SESSION_TTL_MS } from '../users/sessions.service.js';
import { PANEL_PREFIX } from './layout.js';

export const SESSION_COOKIE = 'kairos_session';

/**
 * Who may open a panel route: 'public' (sign-in, invite and reset links), 'signed-in' (any member,
 * the default), or a permission of src/users/roles.ts.
 */
export type PanelAccess = 'public' | 'signed-in' | 'account' | Permission;

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user and workspace; undefined on public routes without a session. */
    panel: PanelSession | undefined;
  }
  interface FastifyContextConfig {
    panelAccess?: PanelAccess;
  }
}

export const forbidden = () =>
  new AppError(403, 'forbidden', 'Your role in this workspace does not allow this page.');

/**
 * `Secure` cookies when the panel is reached over HTTPS. We know that from PUBLIC_URL: behind a
 * TLS-terminating proxy the app itself sees plain HTTP, so the operator says `https://...` there
 * (docs: README "Panel"). Without PUBLIC_URL (local use on http://127.0.0.1) cookies are not Secure,
 * since a browser would drop them.
 */
export function cookiesSecure(deps: AppDeps): boolean {
  return deps.config.publicUrl?.startsWith('https://') ?? false;
}

export function setSessionCookie(reply: FastifyReply, deps: AppDeps, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: PANEL_PREFIX,
    httpOnly: true,
    sameSite: 'lax',
    secure: cookiesSecure(deps),
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, deps: AppDeps): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: PANEL_PREFIX,
    httpOnly: true,
    sameSite: 'lax',
    secure: cookiesSecure(deps),
  });
}

/** Where an unsigned visitor goes: the sign-in page, back to where they were after it. */
function signInRedirect(request: FastifyRequest, reply: FastifyReply) {
  const next = request.method === 'GET' ? request.url : PANEL_PREFIX;
  return reply.redirect(`${PANEL_PREFIX}/sign-in?next=${encodeURIComponent(next)}`, 303);
}

/**
 * Reads the session cookie on every panel request (one query: session, user, role) and enforces
 * the route's access rule. A user with a one-time password goes to the password page first.
 */
export function registerPanelAuth(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('panel', undefined);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const access = request.routeOptions.config?.panelAccess ?? 'signed-in';
    const token = request.cookies[SESSION_COOKIE];
    request.panel = await resolveSession(deps.db, token, deps.clock.now());
    if (access === 'public') return;
    const session = request.panel;
    if (!session) {
      if (token) clearSessionCookie(reply, deps);
      return signInRedirect(request, reply);
    }
    if (access === 'account') return;
    if (session.user.mustChangePassword) return reply.redirect(`${PANEL_PREFIX}/account/password`, 303);
    if (!session.workspace) {
      throw new AppError(
        403,
        'no_workspace',
        'You are not a member of any workspace yet. Ask an owner to invite you.',
      );
    }
    if (access !== 'signed-in' && !can(session.workspace.role, access)) throw forbidden();
  });
}

/** The session of a route that is not public (the hook guarantees it). */
export function sessionOf(request: FastifyRequest): PanelSession & {
  workspace: NonNullable<PanelSession['workspace']>;
} {
  const session = request.panel;
  if (!session?.workspace) throw forbidden();
  return session as PanelSession & { workspace: NonNullable<PanelSession['workspace']> };
}
