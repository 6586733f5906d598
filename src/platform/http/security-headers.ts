import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers (nosniff, no-store, CSP), one helper per kind of surface so later surfaces (the
 * panel, the booking page) take the same policy instead of writing their own.
 */

/**
 * API answers: never sniffed as another type; answers to an authenticated request are never
 * stored by a browser or proxy cache (they carry one workspace's data).
 */
export function registerApiSecurityHeaders(scope: FastifyInstance): void {
  scope.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (request.auth) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

export interface CspAllowances {
  /** 'sha256-...' sources for inline scripts a page cannot avoid. */
  scriptHashes?: string[];
  /** 'sha256-...' sources for inline styles. */
  styleHashes?: string[];
  /** Who may frame the page; default nobody. The booking page, made to be embedded, widens it. */
  frameAncestors?: string[];
}

/**
 * A strict Content-Security-Policy: nothing loads but from our own origin (no CDN, no inline
 * script or style unless its hash is named), no plugins, no <base> rewriting, forms post only to
 * us, and no framing.
 */
export function strictCspDirectives(allow: CspAllowances = {}): Record<string, string[]> {
  return {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'", ...(allow.scriptHashes ?? [])],
    styleSrc: ["'self'", ...(allow.styleHashes ?? [])],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    manifestSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: allow.frameAncestors ?? ["'none'"],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
  };
}

/**
 * Registers helmet on an HTML surface's own (encapsulated) scope: the strict CSP above plus
 * helmet's other headers (nosniff, frame denial, no referrer across origins). Call it first in
 * the scope, before the pages are registered.
 */
export async function registerHtmlSecurityHeaders(
  scope: FastifyInstance,
  allow: CspAllowances = {},
): Promise<void> {
  await scope.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: strictCspDirectives(allow) },
    // Same-origin pages only; COEP would refuse nothing we load and only adds risk of breakage.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
  });
}
