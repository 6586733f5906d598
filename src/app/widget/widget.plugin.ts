import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { flowRoutes } from '../../booking-page/widget/flow.routes.js';
import { renderErrorPage } from '../../booking-page/widget/layout.js';
import { manageRoutes } from '../../booking-page/widget/manage.routes.js';
import { pageContext, requireWorkspace } from '../../booking-page/widget/page-context.js';
import { waitlistPageRoutes } from '../../booking-page/widget/waitlist.routes.js';
import { CUSTOMER } from '../../booking-page/widget/widget-context.js';
import { AppError } from '../../errors.js';
import { projectRoot } from '../../platform/db/project-root.js';
import { toAppError } from '../../platform/http/errors.js';
import { registerPerAddressLimit } from '../../platform/http/rate-limit.js';
import type { AppDeps } from '../../platform/http/types.js';
import type { RequestContext } from '../../workspaces/request-context.js';
import { findWorkspaceBySlug } from '../../workspaces/workspaces.repository.js';

/** Per-IP limits of the public booking page: it has no auth, so they stand against abuse. */
export const WIDGET_LIMITS = {
  /** Every request of one IP: `WIDGET_REQUESTS_PER_MINUTE` (default 300), generous for people. */
  /** Bookings made from one IP. */
  creates: { max: 10, timeWindow: '10 minutes' },
  /** Bookings without a solved proof-of-work (no JavaScript) from one IP. */
  createsWithoutProofOfWork: { max: 3, timeWindow: '1 hour' },
};

/**
 * The online-booking page surface (`/book/<slug>` and `/embed.js`): public (no auth, no cookies),
 * per-IP rate limits, and its own error rendering: every 404, 422, 429 or 500 is a friendly HTML
 * page in the customer's language, never JSON. Feature routes live in src/booking-page/widget/.
 */
export async function widgetSurface(app: FastifyInstance, deps: AppDeps): Promise<void> {
  await registerPerAddressLimit(app, deps.config.widgetRequestsPerMinute);
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const mapped = toAppError(error);
    if (mapped.statusCode >= 500) request.log.error({ err: error }, 'booking page request failed');
    if (mapped.headers) reply.headers(mapped.headers);
    return renderError(deps, request, reply, mapped.statusCode);
  });

  // The embed script (src/booking-page/islands/embed.island.tsx, minified by npm run build).
  let embed: Buffer | undefined;
  app.get('/embed.js', { schema: { hide: true } }, async (_request, reply) => {
    embed ??= await readFile(path.join(projectRoot(), 'dist', 'public', 'islands', 'embed.js'));
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('access-control-allow-origin', '*')
      .send(embed);
  });

  const noProofLimit = app.createRateLimit({
    ...WIDGET_LIMITS.createsWithoutProofOfWork,
    keyGenerator: (request) => `no-pow:${request.ip}`,
  });
  const withoutProofOfWork = async (request: FastifyRequest) => {
    const verdict = await noProofLimit(request);
    if (!verdict.isAllowed && verdict.isExceeded) {
      throw new AppError(429, 'rate_limited', 'Too many requests.', undefined, {
        'retry-after': String(verdict.ttlInSeconds),
      });
    }
  };
  await app.register(
    async (pages) => {
      pages.setNotFoundHandler((request, reply) => renderError(deps, request, reply, 404));
      // The context of every service call of the request, built here once: the workspace of the
      // page's slug (an unknown one is the page's 404), the customer as the actor.
      pages.decorateRequest('widgetContext', undefined);
      pages.addHook('onRequest', async (request) => {
        const slug = (request.params as { slug?: unknown } | undefined)?.slug;
        if (typeof slug !== 'string') return;
        const now = deps.clock.now();
        let context: Promise<RequestContext> | undefined;
        request.widgetContext = () =>
          (context ??= requireWorkspace(deps, slug).then(({ workspace }) => ({
            workspace,
            actor: CUSTOMER,
            now,
            linkBase: deps.linkBase(),
          })));
      });
      // No cache hook here: booking page writes go through the services' unit of work, which
      // invalidates the workspace's cached answers after commit (docs/architecture.md).
      await flowRoutes(pages, deps, { create: WIDGET_LIMITS.creates, withoutProofOfWork });
      await manageRoutes(pages, deps);
      await waitlistPageRoutes(pages, deps, { create: WIDGET_LIMITS.creates });
    },
    { prefix: '/book' },
  );
}

async function renderError(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, status: number) {
  const slug = (request.params as { slug?: unknown } | undefined)?.slug;
  // The workspace (when known) gives the page its language, name and embed origins: an error
  // inside the booking page's iframe must still be allowed to show there.
  const workspace =
    typeof slug === 'string' && /^[a-z0-9][a-z0-9-]{1,62}$/.test(slug)
      ? await findWorkspaceBySlug(deps.db, slug).catch(() => undefined)
      : undefined;
  const ctx = pageContext(request, reply, workspace, undefined);
  const { t } = ctx;
  const [heading, text] =
    status === 404
      ? [t.notFound, t.notFoundText]
      : status === 429
        ? [t.tooMany, t.tooManyText]
        : status < 500
          ? [t.invalid, t.invalidText]
          : [t.error, t.errorText];
  return reply.status(status).send(renderErrorPage(ctx, heading, text));
}
