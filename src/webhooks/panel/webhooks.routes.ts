import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userActor } from '../../audit/audit.service.js';
import { AppError } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, list, str } from '../../panel-kit/forms.js';
import { type PanelKey, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { refusalOf } from '../../panel-kit/panel-errors.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce, showSecretOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { listDeliveriesPage, retryDelivery, sendTestEvent } from '../deliveries.service.js';
import {
  createWebhook,
  getWebhook,
  listWebhooksPage,
  rotateWebhookSecret,
  updateWebhook,
} from '../webhooks.service.js';
import {
  HOOKS,
  NewWebhookPage,
  WebhookDetailPage,
  type WebhookDetailProps,
  WebhooksPage,
} from './webhooks.page.js';

const access = { config: { panelAccess: 'developers' as const } };
/** The deliveries log shows the latest ones; older ones stay in the API (GET .../deliveries). */
const LOG_SIZE = 25;

const NOTICES: Record<string, PanelKey> = {
  enabled: 'hooks.notice.enabled',
  disabled: 'hooks.notice.disabled',
  test: 'hooks.notice.test',
  resent: 'hooks.notice.resent',
  'already-created': 'hooks.notice.alreadyCreated',
  'already-rotated': 'hooks.notice.alreadyRotated',
};

/** Settings -> Developers -> Webhooks, modelled on Stripe's dashboard. Every write calls the API's services. */
export function webhooksPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  const context = () => ({ now: deps.clock.now(), allowPrivate: deps.config.webhooksAllowPrivate });
  /** The signed-in user, who makes the change (the audit log). */
  const actorOf = (request: FastifyRequest) => userActor(sessionOf(request).user.id);

  async function renderDetail(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: Partial<Pick<WebhookDetailProps, 'secret' | 'problem'>> = {},
    status = 200,
  ) {
    const session = sessionOf(request);
    const webhook = await getWebhook(deps.db, session.workspace.id, uuidParam(request, 'webhookId'));
    const { rows, attempts, total } = await listDeliveriesPage(deps.db, session.workspace.id, webhook.id, {
      page: 1,
      perPage: LOG_SIZE,
      offset: 0,
    });
    const text = panelTextOf(request);
    const noticeKey = NOTICES[(request.query as Record<string, string | undefined>).notice ?? ''];
    const notice = noticeKey ? text.t(noticeKey) : undefined;
    return reply.page({
      title: text.t('hooks.pageTitle', { url: webhook.url }),
      status,
      islands: extra.secret ? ['copy-text'] : [],
      body: WebhookDetailPage({
        csrf: reply.csrf(),
        webhook,
        deliveries: rows,
        attempts,
        total,
        ...(notice ? { notice } : {}),
        ...extra,
        text,
      }),
    });
  }

  panel.get('/settings/developers/webhooks', access, async (request, reply) => {
    const session = sessionOf(request);
    const { rows } = await listWebhooksPage(deps.db, session.workspace.id, {
      page: 1,
      perPage: 100,
      offset: 0,
    });
    const text = panelTextOf(request);
    return reply.page({ title: text.t('nav.webhooks'), body: WebhooksPage({ webhooks: rows, text }) });
  });

  panel.get('/settings/developers/webhooks/new', access, async (request, reply) => {
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('hooks.add'),
      body: NewWebhookPage({ form: emptyForm(), csrf: reply.csrf(), text }),
    });
  });

  panel.post('/settings/developers/webhooks', access, async (request, reply) => {
    const session = sessionOf(request);
    const values = {
      url: str(request.body, 'url'),
      description: str(request.body, 'description'),
      events: list(request.body, 'events'),
    };
    try {
      // The form's key: a double click adds one endpoint. Its secret is shown once and never
      // stored with the key, so a repeat is sent to the endpoint's page without it.
      return await showSecretOnce(
        request,
        reply,
        deps.uow,
        session.workspace.id,
        (uow) =>
          createWebhook(
            uow,
            session.workspace.id,
            { url: values.url, description: values.description.trim(), events: values.events },
            context(),
            actorOf(request),
          ),
        ({ webhook }) => `${HOOKS}/${webhook.id}?notice=already-created`,
        ({ webhook, secret }) => {
          (request.params as Record<string, string>).webhookId = webhook.id;
          return renderDetail(request, reply, { secret });
        },
      );
    } catch (error) {
      // The SSRF guard's refusal is one of these: a field error next to the URL.
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      const text = panelTextOf(request);
      return reply.page({
        title: text.t('hooks.add'),
        status: 422,
        body: NewWebhookPage({
          form: { values, errors: formErrorsOf(error, panelTextOf(request).t) },
          csrf: reply.csrf(),
          text,
        }),
      });
    }
  });

  panel.get('/settings/developers/webhooks/:webhookId', access, (request, reply) =>
    renderDetail(request, reply),
  );

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    panel.post(`/settings/developers/webhooks/:webhookId/${action}`, access, async (request, reply) => {
      const session = sessionOf(request);
      const id = uuidParam(request, 'webhookId');
      // The form's key: a double click changes the endpoint once and answers both the same way.
      return redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await updateWebhook(uow, session.workspace.id, id, { enabled }, context(), actorOf(request));
        return `${HOOKS}/${id}?notice=${action}d`;
      });
    });
  }

  panel.post('/settings/developers/webhooks/:webhookId/rotate', access, async (request, reply) => {
    const session = sessionOf(request);
    const id = uuidParam(request, 'webhookId');
    // The form's key: a double click replaces the secret once, so the one shown is the one in
    // use. It is never stored with the key: a repeat is sent to the endpoint's page without it.
    return showSecretOnce(
      request,
      reply,
      deps.uow,
      session.workspace.id,
      (uow) => rotateWebhookSecret(uow, session.workspace.id, id, deps.clock.now(), actorOf(request)),
      () => `${HOOKS}/${id}?notice=already-rotated`,
      ({ secret }) => renderDetail(request, reply, { secret }),
    );
  });

  panel.post('/settings/developers/webhooks/:webhookId/test', access, async (request, reply) => {
    const id = uuidParam(request, 'webhookId');
    const { workspace } = await panelContextOf(request);
    try {
      // The form's key: a double click queues one test event.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await sendTestEvent(uow, workspace, id, deps.clock.now());
        return `${HOOKS}/${id}?notice=test`;
      });
    } catch (error) {
      return conflictOnPage(request, reply, error);
    }
  });

  panel.post(
    '/settings/developers/webhooks/:webhookId/deliveries/:deliveryId/resend',
    access,
    async (request, reply) => {
      const session = sessionOf(request);
      const id = uuidParam(request, 'webhookId');
      try {
        // The form's key: a double click queues the delivery again once.
        return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
          await retryDelivery(
            uow,
            session.workspace.id,
            id,
            uuidParam(request, 'deliveryId'),
            deps.clock.now(),
          );
          return `${HOOKS}/${id}?notice=resent`;
        });
      } catch (error) {
        return conflictOnPage(request, reply, error);
      }
    },
  );

  /** A refused action (disabled endpoint, delivery in flight) is said on the endpoint's page. */
  function conflictOnPage(request: FastifyRequest, reply: FastifyReply, error: unknown) {
    if (error instanceof AppError && error.statusCode === 409) {
      return renderDetail(request, reply, { problem: refusalOf(error, panelTextOf(request).t) }, 409);
    }
    throw error;
  }
}
