import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, SlotUnavailable, type SlotUnavailableReason } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import { toAppError } from '../platform/http/errors.js';
import { formErrorsOf } from './form-errors.js';
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

/** The panel's own refusals, in the reader's language. */
const EXPLAINED: Record<string, PanelKey> = {
  csrf: 'error.csrf',
  forbidden: 'error.forbidden',
  no_workspace: 'error.noWorkspace',
  rate_limited: 'error.rateLimited',
};

/**
 * The codes of whole-request refusals (an `AppError` that names no one field) the panel words
 * from `refusal.<code>`, with the error's `values` as the message's arguments. A code missing
 * here reads as the generic refusal of its status, never as the service's English message.
 */
export const REFUSAL_CODES = [
  'bad_request',
  'booking_final',
  'calendar_connect_failed',
  'change_refused',
  'conflict',
  'delivery_in_flight',
  'entry_closed',
  'invalid_date',
  'invalid_value',
  'invalid_view',
  'last_owner',
  'limit_reached',
  'mail_outdated',
  'mail_queued',
  'malformed_body',
  'no_outside_change',
  'not_a_staffer',
  'offer_gone',
  'offer_time_taken',
  'payload_too_large',
  'payment_provider_missing',
  'payment_provider_unavailable',
  'payment_refused',
  'refund_too_large',
  'resource_in_use',
  'resources_changed',
  'secret_key_missing',
  'secret_unreadable',
  'series_conflict',
  'status_built_in',
  'status_is_default',
  'text_not_failed',
  'time_offered',
  'validation_failed',
  'webhook_disabled',
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

const isRefusalCode = (code: string): code is RefusalCode =>
  (REFUSAL_CODES as readonly string[]).includes(code);

/** A slot refusal's reason, worded: the rule the time breaks, or that it is taken. */
const SLOT_REASONS: Record<SlotUnavailableReason, PanelKey> = {
  taken: 'refusal.slot_taken',
  not_on_grid: 'refusal.slot_not_on_grid',
  too_soon: 'refusal.slot_too_soon',
  beyond_horizon: 'refusal.slot_beyond_horizon',
};

/**
 * What a refused request is told, in the reader's language, from its code (and a slot's reason):
 * the one place a panel route or page turns a whole-request `AppError` into words. 5xx never
 * carries internals; no message text is read.
 */
export function refusalOf(error: AppError, t: PanelText['t']): string {
  if (error.statusCode >= 500) return t('error.server');
  const known = EXPLAINED[error.code];
  if (known) return t(known);
  if (error instanceof SlotUnavailable) return t(SLOT_REASONS[error.reason]);
  if (error.statusCode === 404) return t('error.notFound');
  if (isRefusalCode(error.code)) return t(`refusal.${error.code}` satisfies PanelKey, error.values);
  return t(error.statusCode === 409 ? 'refusal.otherConflict' : 'refusal.other');
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
        <p>{refusalOf(error, t)}</p>
        {error.errors && error.code === 'validation_failed' && (
          <ul>
            {Object.entries(formErrorsOf(error, t)).map(([field, messages]) => (
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
