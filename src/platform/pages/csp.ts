import { randomBytes } from 'node:crypto';

/** A fresh nonce for one HTML response. */
export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

/**
 * The strict Content-Security-Policy of our HTML pages: nothing from other origins, inline code
 * only by the response's nonce, forms post only to us. `frameAncestors` is `'none'` for the panel;
 * the booking page passes the workspace's allow-listed embedding origins. `formTargets` widens
 * form-action for a form whose answer redirects elsewhere (browsers check a form's redirects
 * against it): the booking page's confirm step, whose booking goes on to the payment provider's
 * hosted page.
 */
export function contentSecurityPolicy(
  nonce: string,
  frameAncestors: string[] = [],
  formTargets: string[] = [],
): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' 'self'`,
    `style-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    // The panel's web app manifest (an installed panel); a page without one loads none.
    "manifest-src 'self'",
    "connect-src 'self'",
    ["form-action 'self'", ...formTargets].join(' '),
    "base-uri 'none'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}
