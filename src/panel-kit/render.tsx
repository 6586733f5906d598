import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import type { Db } from '../platform/db/client.js';
import { contentSecurityPolicy, newNonce } from '../platform/pages/csp.js';
import { renderDocument } from '../platform/pages/document.js';
import { listMembershipsOfUser } from '../users/users.repository.js';
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
  const html = renderDocument({
    title: `${options.title} · Kairos`,
    lang: 'en',
    css: options.css ? PANEL_CSS + options.css : PANEL_CSS,
    nonce,
    ...(options.islands ? { islands: options.islands } : {}),
    body,
  });
  return reply
    .status(options.status ?? 200)
    .header('content-security-policy', contentSecurityPolicy(nonce))
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}
