import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import { toAppError } from '../platform/http/errors.js';
import { PANEL_PREFIX } from './layout.js';
import { sendPage } from './render.js';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  403: 'Not allowed',
  404: 'Page not found',
  409: 'Could not be done',
  422: 'Could not be saved',
  429: 'Too many attempts',
  503: 'Temporarily unavailable',
};

/** What a person is told; 5xx never carries internals. */
function explain(error: AppError): string {
  if (error.statusCode >= 500) return 'Something went wrong on our side. Please try again in a moment.';
  if (error.code === 'csrf') {
    return 'This form was not sent from this panel, or it has expired. Go back, reload the page and try again.';
  }
  if (error.statusCode === 404) return 'There is nothing here, or it is not part of your workspace.';
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
  const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Error');
  return sendPage(db, request, reply, {
    status,
    title,
    body: (
      <>
        <h1>{title}</h1>
        <p>{explain(error)}</p>
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
            {request.panel ? 'Back to the panel home' : 'Go to sign-in'}
          </a>
        </p>
      </>
    ),
  });
}
