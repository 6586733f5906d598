import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { emptyForm, list, str } from '../../panel-kit/forms.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
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

const NOTICES: Record<string, string> = {
  enabled: 'The endpoint is enabled.',
  disabled: 'The endpoint is disabled: events wait until it is enabled again.',
  test: 'A test event is queued; it shows below once sent.',
  resent: 'The event is queued to be sent again.',
};

/** Settings -> Developers -> Webhooks, modelled on Stripe's dashboard. Every write calls the API's services. */
export function webhooksPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  const context = () => ({ now: deps.clock.now(), allowPrivate: deps.config.webhooksAllowPrivate });

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
    const notice = NOTICES[(request.query as Record<string, string | undefined>).notice ?? ''];
    return reply.page({
      title: `Webhook ${webhook.url}`,
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
    return reply.page({ title: 'Webhooks', body: WebhooksPage({ webhooks: rows }) });
  });

  panel.get('/settings/developers/webhooks/new', access, async (_request, reply) =>
    reply.page({ title: 'Add an endpoint', body: NewWebhookPage({ form: emptyForm(), csrf: reply.csrf() }) }),
  );

  panel.post('/settings/developers/webhooks', access, async (request, reply) => {
    const session = sessionOf(request);
    const values = {
      url: str(request.body, 'url'),
      description: str(request.body, 'description'),
      events: list(request.body, 'events'),
    };
    try {
      const { webhook, secret } = await createWebhook(
        deps.uow,
        session.workspace.id,
        { url: values.url, description: values.description.trim(), events: values.events },
        context(),
      );
      (request.params as Record<string, string>).webhookId = webhook.id;
      return renderDetail(request, reply, { secret });
    } catch (error) {
      // The SSRF guard's refusal is one of these: a field error next to the URL.
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return reply.page({
        title: 'Add an endpoint',
        status: 422,
        body: NewWebhookPage({ form: { values, errors: error.errors }, csrf: reply.csrf() }),
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
      await updateWebhook(deps.uow, session.workspace.id, id, { enabled }, context());
      return reply.redirect(`${HOOKS}/${id}?notice=${action}d`, 303);
    });
  }

  panel.post('/settings/developers/webhooks/:webhookId/rotate', access, async (request, reply) => {
    const session = sessionOf(request);
    const { secret } = await rotateWebhookSecret(
      deps.uow,
      session.workspace.id,
      uuidParam(request, 'webhookId'),
      deps.clock.now(),
    );
    return renderDetail(request, reply, { secret });
  });

  panel.post('/settings/developers/webhooks/:webhookId/test', access, async (request, reply) => {
    const id = uuidParam(request, 'webhookId');
    const { workspace } = await panelContextOf(request);
    try {
      await sendTestEvent(deps.uow, workspace, id, deps.clock.now());
    } catch (error) {
      return conflictOnPage(request, reply, error);
    }
    return reply.redirect(`${HOOKS}/${id}?notice=test`, 303);
  });

  panel.post(
    '/settings/developers/webhooks/:webhookId/deliveries/:deliveryId/resend',
    access,
    async (request, reply) => {
      const session = sessionOf(request);
      const id = uuidParam(request, 'webhookId');
      try {
        await retryDelivery(
          deps.uow,
          session.workspace.id,
          id,
          uuidParam(request, 'deliveryId'),
          deps.clock.now(),
        );
      } catch (error) {
        return conflictOnPage(request, reply, error);
      }
      return reply.redirect(`${HOOKS}/${id}?notice=resent`, 303);
    },
  );

  /** A refused action (disabled endpoint, delivery in flight) is said on the endpoint's page. */
  function conflictOnPage(request: FastifyRequest, reply: FastifyReply, error: unknown) {
    if (error instanceof AppError && error.statusCode === 409) {
      return renderDetail(
        request,
        reply,
        { problem: error.message.replace(/ \(PUT with "enabled": true\)/, '') },
        409,
      );
    }
    throw error;
  }
}
