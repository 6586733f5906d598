import type { FastifyError, FastifyInstance } from 'fastify';
import { tagTenantRequest } from '../../platform/db/statement-recorder.js';
import { toAppError } from '../../platform/http/errors.js';
import { registerPerAddressLimit } from '../../platform/http/rate-limit.js';
import type { AppDeps } from '../../platform/http/types.js';
import { textHookRoutes } from '../../text-messages/hooks/text-hooks.routes.js';

/**
 * The text providers' webhooks (`/hooks/text/...`, docs/text-messages.md): public, each request
 * verified by its provider's signature (Twilio's X-Twilio-Signature, the gateway's Standard
 * Webhooks signature); per-IP limit like the booking page's; errors in short plain text, since
 * the callers are providers' servers. JSON bodies stay raw text here: the gateway's signature
 * covers the exact bytes.
 */
export async function textHooksSurface(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.addHook('onRequest', tagTenantRequest);
  await registerPerAddressLimit(app, deps.config.widgetRequestsPerMinute);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const mapped = toAppError(error);
    if (mapped.statusCode >= 500) request.log.error({ err: error }, 'text hook request failed');
    return reply.status(mapped.statusCode).type('text/plain; charset=utf-8').send(`${mapped.message}\n`);
  });
  textHookRoutes(app, deps);
}
