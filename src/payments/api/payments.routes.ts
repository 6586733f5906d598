import { Type } from 'typebox';
import { presentBooking } from '../../bookings/bookings.presenter.js';
import { BookingJson } from '../../bookings/bookings.schemas.js';
import { Data, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { COLLECT_MODES, MAX_FREE_HOURS, POLICY_PRESETS } from '../payment-policy.rules.js';
import { getPaymentPolicy, setPaymentPolicy } from '../payment-settings.service.js';
import { refundBooking } from '../payments.service.js';

const Percent = Type.Integer({ minimum: 0, maximum: 100 });

export const PaymentPolicyJson = Type.Object({
  collect: Type.Enum([...COLLECT_MODES], {
    description:
      'none; deposit (fixed or percent of the price); prepayment (the price); card_on_file (kept, not charged)',
  }),
  deposit_type: Type.Enum(['fixed', 'percent']),
  deposit_amount: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: 'Minor units, for a fixed deposit',
  }),
  deposit_percent: Type.Union([Percent, Type.Null()]),
  preset: Type.Enum([...POLICY_PRESETS, 'custom'], {
    description:
      'flexible: free until 2 h before, no late fee, 50% no-show; moderate: 24 h, 50%, 100%; strict: 48 h, 100%, 100%',
  }),
  free_cancellation_hours: Type.Integer({ minimum: 0, maximum: MAX_FREE_HOURS }),
  late_cancel_fee_percent: Percent,
  no_show_fee_percent: Percent,
});

const PaymentPolicyBody = Type.Object({
  collect: Type.Enum([...COLLECT_MODES]),
  deposit_type: Type.Optional(Type.Enum(['fixed', 'percent'])),
  deposit_amount: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000_000 }), Type.Null()]),
  ),
  deposit_percent: Type.Optional(Type.Union([Percent, Type.Null()])),
  preset: Type.Enum([...POLICY_PRESETS, 'custom']),
  free_cancellation_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_FREE_HOURS })),
  late_cancel_fee_percent: Type.Optional(Percent),
  no_show_fee_percent: Type.Optional(Percent),
});

const RefundBody = Type.Object({
  amount: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1_000_000_000,
      description: 'Minor units; absent: all that is left',
    }),
  ),
});

const ServiceParams = Type.Object({ serviceUuid: Type.String({ format: 'uuid' }) });

/** A service's payment policy (docs/payments.md). */
export async function paymentsRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const tags = ['payments'];
  app.get(
    '/services/:serviceUuid/payment_policy',
    {
      schema: {
        tags,
        summary: "A service's payment and cancellation policy",
        params: ServiceParams,
        response: responses({ 200: Data(PaymentPolicyJson) }),
      },
    },
    async (request) => ({
      data: await getPaymentPolicy(deps.db, request.auth.workspace.id, request.params.serviceUuid),
    }),
  );
  app.put(
    '/services/:serviceUuid/payment_policy',
    {
      schema: {
        tags,
        summary: "Sets a service's payment and cancellation policy (a preset's terms, or custom ones)",
        params: ServiceParams,
        body: PaymentPolicyBody,
        response: responses({ 200: Data(PaymentPolicyJson) }),
      },
    },
    async (request) => ({
      data: await setPaymentPolicy(
        deps.uow,
        request.context.workspace.id,
        request.context.actor,
        request.params.serviceUuid,
        request.body,
      ),
    }),
  );

  app.post(
    '/bookings/:bookingUuid/refunds',
    {
      schema: {
        tags,
        summary:
          'Refunds what the payment provider took for a booking, in full or in part (sent by the payment worker, once)',
        params: Type.Object({ bookingUuid: Type.String({ format: 'uuid' }) }),
        body: RefundBody,
        response: responses({ 202: Data(BookingJson) }),
      },
    },
    async (request, reply) => {
      const view = await refundBooking(
        { ...request.context, db: deps.db, uow: deps.uow },
        request.params.bookingUuid,
        request.body.amount,
      );
      return reply
        .status(202)
        .send({ data: presentBooking(view, request.context.workspace, deps.linkBase()) });
    },
  );
}
