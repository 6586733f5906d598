import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import { toAppError } from '../platform/http/errors.js';
import { type PanelKey, type PanelText, panelTextOf } from './i18n.js';
import { PANEL_PREFIX } from './layout.js';
import { sendPage } from './render.js';

const TITLES: Record<number, PanelKey> = {
  400: 'error.400',
  403: 'error.403',
  404: 'error.404',
  409: 'error.409',
  422: 'error.422',
  429: 'error.429',
  503: 'error.503',
};

/** The panel's own refusals, in the reader's language; a feature's message stays as it was written. */
const EXPLAINED: Record<string, PanelKey> = {
  csrf: 'error.csrf',
  forbidden: 'error.forbidden',
  no_workspace: 'error.noWorkspace',
  rate_limited: 'error.rateLimited',
};

/** What a person is told; 5xx never carries internals. */
function explain(error: AppError, t: PanelText['t']): string {
  if (error.statusCode >= 500) return t('error.server');
  const known = EXPLAINED[error.code];
  if (known) return t(known);
  if (error.statusCode === 404) return t('error.notFound');
  return error.message;
}

/** The panel's error rendering: every 4xx/5xx is an HTML page in the panel's style, never JSON. */
export function registerHtmlErrors(app: FastifyInstance, db: Db): void {
  app.setErrorHandler(async (raw: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const error = fromPanelError(raw);
    if (error.statusCode >= 500) request.log.error({ err: raw }, 'panel request failed');
    if (error.headers) reply.headers(error.headers);
    return renderError(db, request, reply, error);
  });
  app.setNotFoundHandler(async (request, reply) =>
    renderError(db, request, reply, new AppError(404, 'not_found', 'Not found.')),
  );
}

function fromPanelError(raw: FastifyError): AppError {
  // @fastify/csrf-protection's refusals (missing secret or bad token).
  if (raw.code?.startsWith('FST_CSRF_')) return new AppError(403, 'csrf', 'Invalid CSRF token.');
  if (raw.statusCode === 429) {
    return new AppError(429, 'rate_limited', 'Too many sign-in attempts. Wait a few minutes and try again.');
  }
  return toAppError(raw);
}

export function renderError(db: Db, request: FastifyRequest, reply: FastifyReply, error: AppError) {
  const status = error.statusCode;
  const { t } = panelTextOf(request);
  const titleKey = TITLES[status];
  const title = titleKey ? t(titleKey) : t(status >= 500 ? 'error.5xx' : 'error.other');
  return sendPage(db, request, reply, {
    status,
    title,
    body: (
      <>
        <h1>{title}</h1>
        <p>{explain(error, t)}</p>
        {error.errors && status < 500 && (
          <ul>
            {Object.entries(error.errors).map(([field, messages]) => (
              <li>
                {field}: {messages.join(' ')}
              </li>
            ))}
          </ul>
        )}
        <p>
          <a href={request.panel ? PANEL_PREFIX : `${PANEL_PREFIX}/sign-in`}>
            {request.panel ? t('error.backHome') : t('error.toSignIn')}
          </a>
        </p>
      </>
    ),
  });
}
