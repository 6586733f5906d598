import type { FastifyError, FastifyInstance } from 'fastify';
import { paymentHookRoutes } from '../../payments/hooks/payment-hooks.routes.js';
import { tagTenantRequest } from '../../platform/db/statement-recorder.js';
import { toAppError } from '../../platform/http/errors.js';
import { registerPerAddressLimit } from '../../platform/http/rate-limit.js';
import type { AppDeps } from '../../platform/http/types.js';

/**
 * The payment provider's webhooks and the customer's return from its hosted page
 * (`/hooks/payments/...`, docs/payments.md): public, every webhook verified by the provider's
 * signature over the exact bytes (so JSON bodies stay raw text here); per-IP limit like the
 * booking page's; errors in short plain text.
 */
export async function paymentHooksSurface(app: FastifyInstance, deps: AppDeps): Promise<void> {
  app.addHook('onRequest', tagTenantRequest);
  await registerPerAddressLimit(app, deps.config.widgetRequestsPerMinute);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const mapped = toAppError(error);
    if (mapped.statusCode >= 500) request.log.error({ err: error }, 'payment hook request failed');
    return reply.status(mapped.statusCode).type('text/plain; charset=utf-8').send(`${mapped.message}\n`);
  });
  paymentHookRoutes(app, deps);
}
