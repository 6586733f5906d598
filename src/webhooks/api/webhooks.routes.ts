import type { FastifyRequest } from 'fastify';
import { answerWrite } from '../../platform/http/idempotency.js';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Data, NoContent, Paginated, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { schemaFieldErrors } from '../../platform/http/validation.js';
import { listDeliveries } from '../deliveries.repository.js';
import { retryDelivery, sendTestEvent } from '../deliveries.service.js';
import {
  presentDelivery,
  presentWebhook,
  presentWebhookWithHeaders,
  presentWebhookWithSecret,
} from '../webhooks.presenter.js';
import { listWebhooks, requireWebhook } from '../webhooks.repository.js';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryJson,
  DeliveryParams,
  UpdateWebhookBody,
  WebhookJson,
  WebhookParams,
  WebhookWithSecretJson,
} from '../webhooks.schemas.js';
import {
  createWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookInput,
} from '../webhooks.service.js';

const TAGS = ['webhooks'];

/**
 * The fields of a body that passed their own schema check. Routes with attachValidation get the
 * body even when parts are wrong; those parts are reported by the schema and left out here.
 */
function inputOf(request: FastifyRequest): WebhookInput {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const raw = body as Record<string, unknown>;
  const input: WebhookInput = {};
  if (typeof raw.url === 'string') input.url = raw.url;
  if (Array.isArray(raw.events) && raw.events.every((item) => typeof item === 'string')) {
    input.events = raw.events as string[];
  }
  if (typeof raw.enabled === 'boolean') input.enabled = raw.enabled;
  if (typeof raw.description === 'string') input.description = raw.description;
  if (raw.format === 'standard' || raw.format === 'legacy') input.format = raw.format;
  if (typeof raw.headers === 'object' && raw.headers !== null && !Array.isArray(raw.headers)) {
    input.headers = raw.headers as Record<string, string>;
  }
  return input;
}

export async function webhooksRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const context = () => ({
    now: deps.clock.now(),
    allowPrivate: deps.config.webhooksAllowPrivate,
    maxWebhooks: deps.config.maxWebhooksPerWorkspace,
  });

  app.get(
    '/webhooks',
    {
      schema: {
        tags: TAGS,
        summary: 'List webhooks',
        querystring: PaginationQuery,
        response: responses({ 200: Paginated(WebhookJson) }),
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { rows, total } = await listWebhooks(deps.db, request.auth.workspace.id, page);
      return paginated(request, page, rows.map(presentWebhook), total);
    },
  );

  app.post(
    '/webhooks',
    {
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: 'Create a webhook (201); the answer holds the signing secret, shown this once',
        body: CreateWebhookBody,
        response: responses({ 201: Data(WebhookWithSecretJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => {
        const errors = schemaFieldErrors(request);
        const { webhook, secret } = await createWebhook(
          uow,
          request.auth.workspace.id,
          inputOf(request),
          context(),
          request.context.actor,
          errors,
        );
        return { data: { ...presentWebhookWithSecret(webhook, secret), headers: webhook.headers } };
      }),
  );

  app.get(
    '/webhooks/:webhookUuid',
    {
      schema: {
        tags: TAGS,
        summary: 'One webhook',
        params: WebhookParams,
        response: responses({ 200: Data(WebhookJson) }),
      },
    },
    async (request) => {
      const webhook = await requireWebhook(deps.db, request.auth.workspace.id, request.params.webhookUuid);
      return { data: presentWebhook(webhook) };
    },
  );

  app.put(
    '/webhooks/:webhookUuid',
    {
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary:
          'Change a webhook (only the fields given; "enabled": true re-enables one the system disabled)',
        params: WebhookParams,
        body: UpdateWebhookBody,
        response: responses({ 200: Data(WebhookJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const errors = schemaFieldErrors(request);
        const input = inputOf(request);
        const webhook = await updateWebhook(
          uow,
          request.auth.workspace.id,
          request.params.webhookUuid,
          input,
          context(),
          request.context.actor,
          errors,
        );
        return {
          data: input.headers === undefined ? presentWebhook(webhook) : presentWebhookWithHeaders(webhook),
        };
      }),
  );

  app.delete(
    '/webhooks/:webhookUuid',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a webhook and its delivery log (204); pending deliveries are dropped',
        params: WebhookParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 204, async (uow) => {
        await deleteWebhook(
          uow,
          request.auth.workspace.id,
          request.params.webhookUuid,
          request.context.actor,
        );
        return undefined;
      }),
  );

  app.post(
    '/webhooks/:webhookUuid/rotate-secret',
    {
      schema: {
        tags: TAGS,
        summary: 'Issue a new signing secret; the old one keeps signing beside it for 24 hours',
        params: WebhookParams,
        response: responses({ 200: Data(WebhookWithSecretJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const { webhook, secret } = await rotateWebhookSecret(
          uow,
          request.auth.workspace.id,
          request.params.webhookUuid,
          deps.clock.now(),
          request.context.actor,
        );
        return { data: presentWebhookWithSecret(webhook, secret) };
      }),
  );

  app.get(
    '/webhooks/:webhookUuid/deliveries',
    {
      schema: {
        tags: TAGS,
        summary: 'Deliveries of a webhook, newest first, each with its attempts',
        params: WebhookParams,
        querystring: DeliveriesQuery,
        response: responses({ 200: Paginated(DeliveryJson) }),
      },
    },
    async (request) => {
      const workspaceId = request.auth.workspace.id;
      await requireWebhook(deps.db, workspaceId, request.params.webhookUuid);
      const page = pageOf(request.query);
      const { rows, attempts, total } = await listDeliveries(
        deps.db,
        workspaceId,
        request.params.webhookUuid,
        page,
        request.query.state,
      );
      return paginated(
        request,
        page,
        rows.map((row) => presentDelivery(row, attempts.get(row.id) ?? [])),
        total,
      );
    },
  );

  app.post(
    '/webhooks/:webhookUuid/deliveries/:deliveryUuid/retry',
    {
      schema: {
        tags: TAGS,
        summary: 'Send one delivery again now (202; the worker sends it)',
        params: DeliveryParams,
        response: responses({ 202: Data(DeliveryJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 202, async (uow) => {
        const { delivery, attempts } = await retryDelivery(
          uow,
          request.auth.workspace.id,
          request.params.webhookUuid,
          request.params.deliveryUuid,
          deps.clock.now(),
        );
        return { data: presentDelivery(delivery, attempts) };
      }),
  );

  app.post(
    '/webhooks/:webhookUuid/test',
    {
      schema: {
        tags: TAGS,
        summary: 'Send a signed {"type":"test"} event through the delivery pipeline (202)',
        params: WebhookParams,
        response: responses({ 202: Data(DeliveryJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 202, async (uow) => {
        const { delivery, attempts } = await sendTestEvent(
          uow,
          request.auth.workspace,
          request.params.webhookUuid,
          deps.clock.now(),
        );
        return { data: presentDelivery(delivery, attempts) };
      }),
  );
}
