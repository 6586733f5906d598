import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { apiKeysPanelRoutes } from '../../api-keys/panel/api-keys.routes.js';
import { auditPanelRoutes } from '../../audit/panel/audit.routes.js';
import { newBookingPanelRoutes } from '../../bookings/panel/booking-new.routes.js';
import { bookingsPanelRoutes } from '../../bookings/panel/bookings.routes.js';
import { bookingsListPanelRoutes } from '../../bookings/panel/bookings-list.routes.js';
import { calendarRoutes } from '../../calendar/panel/calendar.routes.js';
import { calendarFeedsPanelRoutes } from '../../calendar-feeds/panel/calendar-feeds.routes.js';
import { calendarSyncPanelRoutes } from '../../calendar-sync/panel/calendar-sync.routes.js';
import { customersPanelRoutes } from '../../customers/panel/customers.routes.js';
import { AppError } from '../../errors.js';
import { importsPanelRoutes } from '../../imports/panel/imports.routes.js';
import { locationsPanelRoutes } from '../../locations/panel/locations.routes.js';
import { notificationsPanelRoutes } from '../../notifications/panel/notifications.routes.js';
import { appManifestRoutes } from '../../panel-kit/app-manifest.js';
import { cookiesSecure, registerPanelAuth } from '../../panel-kit/panel-auth.js';
import { registerHtmlErrors } from '../../panel-kit/panel-errors.js';
import { sendPage } from '../../panel-kit/render.js';
import { paymentAccountsPanelRoutes } from '../../payment-accounts/panel/payment-accounts.routes.js';
import { paymentPolicyPanelRoutes } from '../../payments/panel/payment-policy.routes.js';
import { paymentsPanelRoutes } from '../../payments/panel/payments.routes.js';
import type { AppDeps } from '../../platform/http/types.js';
import { reportsPanelRoutes } from '../../reports/panel/reports.routes.js';
import { resourcesPanelRoutes } from '../../resources/panel/resources.routes.js';
import { schedulesPanelRoutes } from '../../schedules/panel/schedules.routes.js';
import { servicesPanelRoutes } from '../../services/panel/services.routes.js';
import { staffersPanelRoutes } from '../../staffers/panel/staffers.routes.js';
import { statusesPanelRoutes } from '../../statuses/panel/statuses.routes.js';
import { textMessagesPanelRoutes } from '../../text-messages/panel/text-messages.routes.js';
import { accountRoutes } from '../../users/panel/account.routes.js';
import { signInRoutes } from '../../users/panel/sign-in.routes.js';
import { teamRoutes } from '../../users/panel/team.routes.js';
import { waitlistPanelRoutes } from '../../waitlist/panel/waitlist.routes.js';
import { webhooksPanelRoutes } from '../../webhooks/panel/webhooks.routes.js';
import { homeRoutes } from '../../workspaces/panel/home.routes.js';
import { workspaceSettingsRoutes } from '../../workspaces/panel/workspace-settings.routes.js';
import type { RequestContext } from '../../workspaces/request-context.js';
import { getWorkspace } from '../../workspaces/workspaces.service.js';

export { PANEL_PREFIX } from '../../panel-kit/layout.js';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The panel's routes get these; each feature's panel/*.routes.ts exports one. */
export type PanelRoutes = (panel: FastifyInstance, deps: AppDeps) => Promise<void> | void;

/**
 * The account panel, mounted at /panel as one encapsulated plugin: session cookie auth
 * (src/users), CSRF token plus Origin check on every POST, CSP with frame-ancestors 'none' and
 * X-Frame-Options DENY, and HTML error pages. Nothing here is seen by the API or the booking page.
 */
export async function panelSurface(panel: FastifyInstance, deps: AppDeps): Promise<void> {
  await panel.register(cookie);
  await panel.register(helmet, {
    // The CSP carries a fresh nonce per page: render.tsx sets it (src/platform/pages/csp.ts).
    contentSecurityPolicy: false,
    frameguard: { action: 'deny' },
    hsts: cookiesSecure(deps),
    referrerPolicy: { policy: 'same-origin' },
  });
  await panel.register(csrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'kairos_csrf',
    cookieOpts: { path: '/panel', httpOnly: true, sameSite: 'lax', secure: cookiesSecure(deps) },
    getToken: (request: FastifyRequest) => {
      const token = (request.body as Record<string, unknown> | undefined)?._csrf;
      return typeof token === 'string' ? token : undefined;
    },
  });
  await panel.register(rateLimit, { global: false });

  panel.decorateReply('csrf', function (this: FastifyReply & { csrfToken?: string }) {
    this.csrfToken ??= this.generateCsrf();
    return this.csrfToken;
  });
  panel.decorateReply('page', function (this: FastifyReply, options) {
    return sendPage(deps.db, this.request, this, options);
  });
  registerHtmlErrors(panel, deps.db);
  registerPanelAuth(panel, deps);
  // After the session check: the context of every service call of the request, built here once.
  panel.decorateRequest('panelContext', undefined);
  panel.addHook('onRequest', async (request) => {
    const session = request.panel;
    if (!session?.workspace) return;
    const workspaceId = session.workspace.id;
    const now = deps.clock.now();
    let context: Promise<RequestContext> | undefined;
    request.panelContext = () =>
      (context ??= getWorkspace(deps.db, workspaceId).then((workspace) => ({
        workspace,
        actor: { type: 'user', id: session.user.id },
        now,
        linkBase: deps.linkBase(),
      })));
  });

  // Every write: from a page of ours (Origin), with the token of a form we rendered (CSRF).
  panel.addHook(
    'preHandler',
    (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (!UNSAFE.has(request.method)) return done();
      if (!sameOrigin(request, deps)) {
        return done(new AppError(403, 'csrf', 'The request did not come from this panel.'));
      }
      panel.csrfProtection(request, reply, done);
    },
  );

  for (const routes of [
    appManifestRoutes,
    homeRoutes,
    calendarRoutes,
    signInRoutes,
    accountRoutes,
    teamRoutes,
    apiKeysPanelRoutes,
    webhooksPanelRoutes,
    waitlistPanelRoutes,
    workspaceSettingsRoutes,
    calendarFeedsPanelRoutes,
    calendarSyncPanelRoutes,
    notificationsPanelRoutes,
    textMessagesPanelRoutes,
    paymentsPanelRoutes,
    staffersPanelRoutes,
    schedulesPanelRoutes,
    customersPanelRoutes,
    importsPanelRoutes,
    auditPanelRoutes,
    reportsPanelRoutes,
    paymentPolicyPanelRoutes,
    bookingsListPanelRoutes,
    bookingsPanelRoutes,
    newBookingPanelRoutes,
    locationsPanelRoutes,
    servicesPanelRoutes,
    statusesPanelRoutes,
    paymentAccountsPanelRoutes,
    resourcesPanelRoutes,
  ] as PanelRoutes[]) {
    await routes(panel, deps);
  }
}

/**
 * The Origin check: a browser sends `Origin` on every POST; it must be our own. Our origin is
 * PUBLIC_URL's when set (behind a proxy the Host header may be internal), else the Host the browser
 * used. A request without Origin falls back to Referer; with neither it is refused.
 */
export function sameOrigin(request: FastifyRequest, deps: AppDeps): boolean {
  const sent = request.headers.origin ?? originOf(request.headers.referer);
  if (!sent || sent === 'null') return false;
  const expected = deps.config.publicUrl
    ? originOf(deps.config.publicUrl)
    : originOf(`${request.protocol}://${request.headers.host ?? ''}`);
  return sent === expected;
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
