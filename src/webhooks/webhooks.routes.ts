import type { FastifyRequest } from 'fastify';
import { PaginationQuery, pageOf, paginated } from '../http/pagination.js';
import type { ApiApp, AppDeps } from '../http/types.js';
import { schemaFieldErrors } from '../http/validation.js';
import { listDeliveries } from './deliveries.repository.js';
import { retryDelivery, sendTestEvent } from './deliveries.service.js';
import { presentDelivery, presentWebhook, presentWebhookWithSecret } from './webhooks.presenter.js';
import { deleteWebhookRow, listWebhooks, requireWebhook } from './webhooks.repository.js';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryParams,
  UpdateWebhookBody,
  WebhookParams,
} from './webhooks.schemas.js';
import { createWebhook, rotateWebhookSecret, updateWebhook, type WebhookInput } from './webhooks.service.js';

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
  return input;
}

export async function webhooksRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const context = () => ({ now: deps.clock.now(), allowPrivate: deps.config.webhooksAllowPrivate });

  app.get(
    '/webhooks',
    { schema: { tags: TAGS, summary: 'List webhooks', querystring: PaginationQuery } },
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
      },
    },
    async (request, reply) => {
      const errors = schemaFieldErrors(request);
      const { webhook, secret } = await createWebhook(
        deps.db,
        request.auth.workspace.id,
        inputOf(request),
        context(),
        errors,
      );
      return reply.status(201).send({ data: presentWebhookWithSecret(webhook, secret) });
    },
  );

  app.get(
    '/webhooks/:webhookUuid',
    { schema: { tags: TAGS, summary: 'One webhook', params: WebhookParams } },
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
      },
    },
    async (request) => {
      const errors = schemaFieldErrors(request);
      const webhook = await updateWebhook(
        deps.db,
        request.auth.workspace.id,
        request.params.webhookUuid,
        inputOf(request),
        context(),
        errors,
      );
      return { data: presentWebhook(webhook) };
    },
  );

  app.delete(
    '/webhooks/:webhookUuid',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a webhook and its delivery log (204); pending deliveries are dropped',
        params: WebhookParams,
      },
    },
    async (request, reply) => {
      await deleteWebhookRow(deps.db, request.auth.workspace.id, request.params.webhookUuid);
      return reply.status(204).send();
    },
  );

  app.post(
    '/webhooks/:webhookUuid/rotate-secret',
    {
      schema: {
        tags: TAGS,
        summary: 'Issue a new signing secret; the old one keeps signing beside it for 24 hours',
        params: WebhookParams,
      },
    },
    async (request) => {
      const { webhook, secret } = await rotateWebhookSecret(
        deps.db,
        request.auth.workspace.id,
        request.params.webhookUuid,
        deps.clock.now(),
      );
      return { data: presentWebhookWithSecret(webhook, secret) };
    },
  );

  app.get(
    '/webhooks/:webhookUuid/deliveries',
    {
      schema: {
        tags: TAGS,
        summary: 'Deliveries of a webhook, newest first, each with its attempts',
        params: WebhookParams,
        querystring: DeliveriesQuery,
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
      },
    },
    async (request, reply) => {
      const { delivery, attempts } = await retryDelivery(
        deps.db,
        request.auth.workspace.id,
        request.params.webhookUuid,
        request.params.deliveryUuid,
        deps.clock.now(),
      );
      return reply.status(202).send({ data: presentDelivery(delivery, attempts) });
    },
  );

  app.post(
    '/webhooks/:webhookUuid/test',
    {
      schema: {
        tags: TAGS,
        summary: 'Send a signed {"type":"test"} event through the delivery pipeline (202)',
        params: WebhookParams,
      },
    },
    async (request, reply) => {
      const { delivery, attempts } = await sendTestEvent(
        deps.db,
        request.auth.workspace,
        request.params.webhookUuid,
        deps.clock.now(),
      );
      return reply.status(202).send({ data: presentDelivery(delivery, attempts) });
    },
  );
}
