import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { type FormState, str } from '../../panel-kit/forms.js';
import { type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { parseMoneyInput } from '../../platform/money.js';
import { connectStripe, disconnectPayments, paymentSettingsView } from '../payment-settings.service.js';
import { refundBooking } from '../payments.service.js';
import { PAYMENTS_PAGE, PaymentsPage } from './payments.page.js';
import { paymentsPanelWords } from './payments.texts.js';

/** Owners and admins (the `settings` permission). */
const access = { config: { panelAccess: 'settings' as const } };

function fieldErrors(error: unknown, t: PanelText['t']) {
  if (error instanceof AppError && error.statusCode === 422 && error.errors) return formErrorsOf(error, t);
  throw error;
}

/** Settings → Payments: connect Stripe (checked live, sealed), disconnect. */
export function paymentsPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function render(request: FastifyRequest, reply: FastifyReply, form?: FormState, status = 200) {
    const { workspace } = await panelContextOf(request);
    const view = await paymentSettingsView(deps.db, workspace.id, deps.config);
    const text = panelTextOf(request);
    const words = paymentsPanelWords(text.t);
    const notice = words.notices[(request.query as Record<string, string | undefined>).notice ?? ''];
    return reply.page({
      title: words.title,
      status,
      body: PaymentsPage({
        csrf: reply.csrf(),
        form: form ?? { values: { hold_minutes: String(view.settings.holdMinutes) }, errors: {} },
        settings: view.settings,
        connected: view.connected,
        canSaveCredentials: view.canSaveCredentials,
        webhookUrl: `${deps.linkBase()}/hooks/payments/${workspace.id}/stripe`,
        ...(notice ? { notice } : {}),
        text,
      }),
    });
  }

  panel.get('/settings/payments', access, (request, reply) => render(request, reply));

  panel.post('/settings/payments', access, async (request, reply) => {
    const context = await panelContextOf(request);
    const hold = str(request.body, 'hold_minutes');
    try {
      return await redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
        await connectStripe(
          uow,
          context.workspace.id,
          context.actor,
          {
            secret_key: str(request.body, 'secret_key'),
            webhook_secret: str(request.body, 'webhook_secret'),
            hold_minutes: hold === '' ? undefined : Number(hold),
          },
          deps.config,
        );
        return `${PAYMENTS_PAGE}?notice=connected`;
      });
    } catch (error) {
      // The keys are never sent back into the form.
      return render(
        request,
        reply,
        { values: { hold_minutes: hold }, errors: fieldErrors(error, panelTextOf(request).t) },
        422,
      );
    }
  });

  panel.post('/settings/payments/disconnect', access, async (request, reply) => {
    const context = await panelContextOf(request);
    return redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
      await disconnectPayments(uow, context.workspace.id, context.actor);
      return `${PAYMENTS_PAGE}?notice=disconnected`;
    });
  });

  // A manual refund from the booking's page: owners and admins only (staff get 403).
  panel.post<{ Params: { bookingUuid: string } }>(
    '/bookings/:bookingUuid/refund',
    access,
    async (request, reply) => {
      const bookingId = uuidParam(request, 'bookingUuid');
      const context = await panelContextOf(request);
      const typed = str(request.body, 'amount').trim();
      const amount = typed === '' ? undefined : parseMoneyInput(typed, context.workspace.currency);
      const page = `${PANEL_PREFIX}/bookings/${bookingId}`;
      if (typed !== '' && amount === undefined)
        return reply.redirect(`${page}?notice=refund_refused#refund`, 303);
      try {
        return await redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
          await refundBooking({ ...context, db: uow.db, uow }, bookingId, amount);
          return `${page}?notice=refunded`;
        });
      } catch (error) {
        if (error instanceof AppError && error.code === 'refund_too_large')
          return reply.redirect(`${page}?notice=refund_refused#refund`, 303);
        throw error;
      }
    },
  );
}
