import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../platform/http/types.js';
import { applyStatusCallback, verifyGatewayHook, verifyTwilioHook } from '../text-hooks.service.js';
import { receiveInboundText } from '../text-inbound.service.js';

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** TwiML: Twilio sends the <Message> back to the sender; an empty <Response/> sends nothing. */
const twiml = (reply: string | null) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n${reply ? `<Response><Message>${xml(reply)}</Message></Response>` : '<Response/>'}`;

const form = (request: FastifyRequest) =>
  Object.fromEntries(
    Object.entries((request.body ?? {}) as Record<string, unknown>).map(([key, value]) => [
      key,
      Array.isArray(value) ? String(value[0]) : String(value ?? ''),
    ]),
  );

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The providers' webhooks: inbound texts and status callbacks, per workspace
 * (`/hooks/text/<workspace id>/<provider>/<inbound|status>`). Every request is verified before
 * anything is read from it: Twilio's X-Twilio-Signature over our public URL, the gateway's
 * Standard Webhooks signature over the raw body.
 */
export function textHookRoutes(app: FastifyInstance, deps: AppDeps): void {
  const env = { config: deps.config, now: () => deps.clock.now() };
  // Twilio signs the URL it was given: our public base and the path as requested.
  const publicUrl = (request: FastifyRequest) => `${deps.linkBase()}${request.url}`;

  app.post<{ Params: { workspaceId: string } }>(
    '/hooks/text/:workspaceId/twilio/inbound',
    async (request, reply) => {
      const params = form(request);
      const workspace = await verifyTwilioHook(deps.db, deps.config, request.params.workspaceId, {
        url: publicUrl(request),
        signature: text(request.headers['x-twilio-signature']),
        params,
      });
      const result = await receiveInboundText(
        { db: deps.db, uow: deps.uow, workspace, now: deps.clock.now(), linkBase: deps.linkBase() },
        {
          provider: 'twilio',
          messageId: params.MessageSid ?? '',
          from: params.From ?? '',
          body: params.Body ?? '',
        },
      );
      return reply.type('text/xml; charset=utf-8').send(twiml(result.reply));
    },
  );

  app.post<{ Params: { workspaceId: string } }>(
    '/hooks/text/:workspaceId/twilio/status',
    async (request, reply) => {
      const params = form(request);
      await verifyTwilioHook(deps.db, deps.config, request.params.workspaceId, {
        url: publicUrl(request),
        signature: text(request.headers['x-twilio-signature']),
        params,
      });
      await applyStatusCallback(
        deps.db,
        env,
        request.params.workspaceId,
        {
          ref: params.MessageSid ?? '',
          messageId: text((request.query as Record<string, unknown>).message),
          status: params.MessageStatus ?? '',
          errorCode: params.ErrorCode,
        },
        deps.clock.now(),
      );
      return reply.status(204).send();
    },
  );

  app.post<{ Params: { workspaceId: string } }>(
    '/hooks/text/:workspaceId/gateway/inbound',
    async (request, reply) => {
      const { workspace, payload } = await verifyGatewayHook(
        deps.db,
        deps.config,
        request.params.workspaceId,
        {
          body: String(request.body ?? ''),
          headers: request.headers,
        },
      );
      const result = await receiveInboundText(
        { db: deps.db, uow: deps.uow, workspace, now: deps.clock.now(), linkBase: deps.linkBase() },
        {
          provider: 'gateway',
          // The gateway's message id, else the webhook-id (Standard Webhooks: the same on a retry).
          messageId: text(payload.id) ?? String(request.headers['webhook-id']),
          from: text(payload.from) ?? '',
          body: text(payload.body) ?? '',
        },
      );
      return reply.send({ action: result.action, reply: result.reply });
    },
  );

  app.post<{ Params: { workspaceId: string } }>(
    '/hooks/text/:workspaceId/gateway/status',
    async (request, reply) => {
      const { payload } = await verifyGatewayHook(deps.db, deps.config, request.params.workspaceId, {
        body: String(request.body ?? ''),
        headers: request.headers,
      });
      await applyStatusCallback(
        deps.db,
        env,
        request.params.workspaceId,
        {
          ref: text(payload.reference) ?? text(payload.id) ?? '',
          messageId: text(payload.id),
          status: text(payload.status) ?? '',
          errorCode: text(payload.error_code),
          price: payload.price,
          priceUnit: text(payload.price_unit),
        },
        deps.clock.now(),
      );
      return reply.status(204).send();
    },
  );
}
