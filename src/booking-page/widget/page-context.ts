import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../errors.js';
import type { Db } from '../../platform/db/client.js';
import { intlLocale, pickLanguage, textDirection } from '../../platform/i18n.js';
import { contentSecurityPolicy, newNonce } from '../../platform/pages/csp.js';
import { canonicalZone } from '../../platform/time/zone.js';
import type { AvailabilityInvalidation } from '../../slots/availability-invalidation.js';
import type { WorkspaceRow } from '../../workspaces/workspaces.repository.js';
import { type Catalog, openCatalog } from '../catalog.js';
import { messagesFor } from '../i18n.js';
import { type PageContext, readState } from './state.js';

/** The workspace of /book/<slug> and this request's catalog, or a 404 page. */
export async function requireWorkspace(
  deps: { db: Db; availability: AvailabilityInvalidation },
  slug: string,
): Promise<{ workspace: WorkspaceRow; catalog: Catalog }> {
  if (!/^[a-z0-9][a-z0-9-]{1,62}$/.test(slug)) throw notFound('Booking page');
  const catalog = await openCatalog(deps.db, deps.availability, slug);
  if (!catalog) throw notFound('Booking page');
  return { workspace: catalog.workspace, catalog };
}

/**
 * The page context of one response, and its headers: the strict CSP whose frame-ancestors are the
 * workspace's allow-listed embed origins (none = no framing), no referrer to other sites (manage
 * links must not leak), and no caching of pages that show free times or a booking.
 */
export function pageContext(
  request: FastifyRequest,
  reply: FastifyReply,
  workspace: WorkspaceRow | undefined,
  locationZone: string | undefined,
  source: unknown = request.query,
): PageContext {
  const state = readState(source);
  const lang = pickLanguage(state.lang, request.headers['accept-language'], workspace?.locale ?? 'en-US');
  const tz = state.tz === undefined ? undefined : canonicalZone(state.tz);
  if (tz === undefined) delete state.tz;
  else state.tz = tz;
  const locale = intlLocale(lang, workspace?.locale ?? 'en-US');
  const t = messagesFor(lang, locale);
  const nonce = newNonce();
  const origins = workspace?.embed_origins ?? [];
  reply
    .header('content-security-policy', contentSecurityPolicy(nonce, origins))
    .header('referrer-policy', 'same-origin')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8');
  return {
    slug: workspace?.slug ?? '',
    workspaceName: workspace?.name ?? t.bookOnline,
    state,
    lang,
    dir: textDirection(lang),
    path: request.method === 'GET' ? request.url.split('?')[0] : undefined,
    arrow: textDirection(lang) === 'rtl' ? { back: '→', forward: '←' } : { back: '←', forward: '→' },
    t,
    locale,
    zone: tz ?? locationZone ?? 'UTC',
    nonce,
    embedOrigins: origins,
  };
}

/**
 * Lets this response's forms lead to `origins` too (the confirm step of a booking that goes on
 * to the payment provider's hosted page): the same policy with a wider form-action.
 */
export function allowFormTargets(reply: FastifyReply, ctx: PageContext, origins: string[]): void {
  if (origins.length === 0) return;
  reply.header('content-security-policy', contentSecurityPolicy(ctx.nonce, ctx.embedOrigins, origins));
}
