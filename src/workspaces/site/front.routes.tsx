import type { FastifyInstance } from 'fastify';
import { appIconSvg } from '../../panel-kit/app-manifest.js';
import { BareLayout } from '../../panel-kit/layout.js';
import { PANEL_CSS } from '../../panel-kit/panel.css.js';
import type { AppDeps } from '../../platform/http/types.js';
import { contentSecurityPolicy, newNonce } from '../../platform/pages/csp.js';
import { renderDocument } from '../../platform/pages/document.js';
import { bookingPagesToList } from '../setup-progress.service.js';
import { FrontPage } from './front.page.js';

export function frontRoutes(app: FastifyInstance, deps: AppDeps): void {
  // Browsers ask every origin for /favicon.ico (without it each first page logged a 404): the
  // panel's app icon answers, as SVG for both names (browsers read an icon by its content type).
  for (const path of ['/favicon.ico', '/favicon.svg']) {
    app.get(path, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('cache-control', 'public, max-age=86400')
        .type('image/svg+xml')
        .send(await appIconSvg()),
    );
  }

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    const nonce = newNonce();
    const html = renderDocument({
      title: 'Kairos',
      lang: 'en',
      css: PANEL_CSS,
      nonce,
      body: (
        <BareLayout>
          <FrontPage bookingPages={await bookingPagesToList(deps.db)} />
        </BareLayout>
      ),
    });
    return reply
      .header('content-security-policy', contentSecurityPolicy(nonce))
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
