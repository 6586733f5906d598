import type { FastifyInstance } from 'fastify';
import { manageLinkOf } from '../../bookings/booking-links.js';
import type { AppDeps } from '../../platform/http/types.js';
import { langOf } from '../../platform/i18n.js';
import { confirmCheckoutReturn, handlePaymentWebhook } from '../payments.service.js';

/**
 * The payment provider's side of a workspace (`/hooks/payments/<workspace id>/stripe`): its
 * webhooks (POST, verified by the Stripe-Signature over the raw body) and the customer's return
 * from the hosted page (GET `/return?session=`: the checkout is read back from Stripe, then the
 * customer goes on to the booking's manage page).
 */
export function paymentHookRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.post<{ Params: { workspaceId: string } }>(
    '/hooks/payments/:workspaceId/stripe',
    async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      const result = await handlePaymentWebhook(
        deps.db,
        deps.uow,
        deps.config,
        request.params.workspaceId,
        {
          body: typeof request.body === 'string' ? request.body : '',
          signature: typeof signature === 'string' ? signature : undefined,
        },
        deps.clock.now(),
      );
      return reply.send({ received: true, duplicate: !result.handled });
    },
  );

  app.get<{ Params: { workspaceId: string }; Querystring: { session?: string } }>(
    '/hooks/payments/:workspaceId/stripe/return',
    async (request, reply) => {
      const { workspace, booking } = await confirmCheckoutReturn(
        deps.db,
        deps.uow,
        deps.config,
        request.params.workspaceId,
        String(request.query.session ?? ''),
        deps.clock.now(),
      );
      // Back in the language the customer booked in, whatever the provider's page was shown in.
      const lang = langOf(booking.language);
      const manage = manageLinkOf(workspace, booking.id, deps.linkBase()).url;
      return reply.redirect(lang ? `${manage}?lang=${lang}` : manage, 303);
    },
  );
}
