import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import type { Db } from '../platform/db/client.js';
import { contentSecurityPolicy, newNonce } from '../platform/pages/csp.js';
import { renderDocument } from '../platform/pages/document.js';
import { listMembershipsOfUser } from '../users/users.repository.js';
import { ICON_PNG_PATHS, ICON_SVG_PATH, MANIFEST_PATH, THEME_COLOR } from './app-manifest.js';
import { PanelTextContext, panelTextOf } from './i18n.js';
import { AppLayout, BareLayout } from './layout.js';
import { PANEL_CSS } from './panel.css.js';

export interface PageOptions {
  title: string;
  /** The page's content; it gets the panel frame around it. */
  body: VNode;
  status?: number;
  islands?: string[];
  /** Page-specific CSS after the panel's stylesheet (the calendar's grid geometry). */
  css?: string;
  /** 'bare' for pages without a session (sign-in, invite, reset). */
  layout?: 'app' | 'bare';
}

export interface PageContext {
  csrf: string;
}

declare module 'fastify' {
  interface FastifyReply {
    /** Renders a panel page: the frame, a fresh CSP nonce, no caching. */
    page(options: PageOptions): Promise<FastifyReply>;
    /** The CSRF token for this response's forms. */
    csrf(): string;
  }
}

/** What makes every panel page installable as an app (app-manifest.ts), and its tab icon. */
const APP_HEAD = (
  <>
    <link rel="manifest" href={MANIFEST_PATH} />
    <meta name="theme-color" content={THEME_COLOR} />
    <link rel="icon" href={ICON_SVG_PATH} type="image/svg+xml" />
    <link rel="apple-touch-icon" href={ICON_PNG_PATHS[192]} />
  </>
);

/** Sends one HTML page of the panel with its own nonce-based CSP. */
export async function sendPage(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  options: PageOptions,
): Promise<FastifyReply> {
  const nonce = newNonce();
  const session = request.panel;
  const bare = options.layout === 'bare' || !session;
  const memberships = bare || !session ? [] : await listMembershipsOfUser(db, session.user.id);
  const body = bare ? (
    <BareLayout>{options.body}</BareLayout>
  ) : (
    <AppLayout
      session={session}
      memberships={memberships}
      csrf={reply.csrf()}
      path={request.url.split('?')[0] ?? ''}
    >
      {options.body}
    </AppLayout>
  );
  const text = panelTextOf(request);
  const html = renderDocument({
    title: `${options.title} · Kairos`,
    lang: text.lang,
    dir: text.dir === 'rtl' ? 'rtl' : undefined,
    css: options.css ? PANEL_CSS + options.css : PANEL_CSS,
    nonce,
    ...(options.islands ? { islands: options.islands } : {}),
    head: APP_HEAD,
    body: <PanelTextContext.Provider value={text}>{body}</PanelTextContext.Provider>,
  });
  return reply
    .status(options.status ?? 200)
    .header('content-security-policy', contentSecurityPolicy(nonce))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}
