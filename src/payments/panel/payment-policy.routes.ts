import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userActor } from '../../audit/audit.service.js';
import { AppError, type FieldErrors, validationFailed } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { formInteger } from '../../panel-kit/form-values.js';
import { type FormState, str } from '../../panel-kit/forms.js';
import { type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { moneyInputValue, parseMoneyInput } from '../../platform/money.js';
import { getService } from '../../services/services.service.js';
import { COLLECT_MODES, POLICY_PRESETS } from '../payment-policy.rules.js';
import {
  getPaymentPolicy,
  type PaymentPolicyInput,
  paymentSettingsView,
  setPaymentPolicy,
} from '../payment-settings.service.js';
import { PaymentPolicyPage, policyPage } from './payment-policy.page.js';

/** Owners and admins: the business's setup. */
const access = { config: { panelAccess: 'setup' as const } };

const FIELDS = [
  'collect',
  'deposit_type',
  'deposit_percent',
  'deposit_amount',
  'preset',
  'free_cancellation_hours',
  'late_cancel_fee_percent',
  'no_show_fee_percent',
] as const;

const oneOf = <T extends string>(values: readonly T[], value: string): value is T =>
  (values as readonly string[]).includes(value);

/**
 * The form's values as the policy the API's PUT takes: the fixed deposit typed in the currency's
 * units ("20.00") becomes minor units; what cannot be read is a field error, in one answer with
 * the service's own checks.
 */
function inputOf(
  values: FormState['values'],
  currency: string,
  t: PanelText['t'],
): { input?: PaymentPolicyInput; errors: FieldErrors } {
  const text = (key: string) => ((values[key] as string | undefined) ?? '').trim();
  const errors: FieldErrors = {};
  const collect = text('collect');
  const preset = text('preset');
  if (!oneOf(COLLECT_MODES, collect)) errors.collect = [t('policy.chooseCollect')];
  if (!oneOf([...POLICY_PRESETS, 'custom'] as const, preset)) errors.preset = [t('policy.chooseTerms')];
  const depositType = text('deposit_type') === 'fixed' ? 'fixed' : 'percent';
  const amount = text('deposit_amount') === '' ? null : parseMoneyInput(text('deposit_amount'), currency);
  if (amount === undefined)
    errors.deposit_amount = [t('policy.enterAmount', { currency, amount: moneyInputValue(2000, currency) })];
  const whole = (key: string, max: number): number | undefined => {
    if (text(key) === '') return undefined;
    const n = formInteger(text(key));
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max) {
      errors[key] = [t('policy.wholeNumber', { max })];
      return undefined;
    }
    return n;
  };
  const percent = whole('deposit_percent', 100);
  const free = whole('free_cancellation_hours', 720);
  const late = whole('late_cancel_fee_percent', 100);
  const noShow = whole('no_show_fee_percent', 100);
  if (Object.keys(errors).length > 0 || !oneOf(COLLECT_MODES, collect)) return { errors };
  return {
    errors,
    input: {
      collect,
      deposit_type: depositType,
      deposit_amount: amount ?? null,
      deposit_percent: percent ?? null,
      preset: preset as PaymentPolicyInput['preset'],
      free_cancellation_hours: free,
      late_cancel_fee_percent: late,
      no_show_fee_percent: noShow,
    },
  };
}

/** Setup → Services → a service → Payment and cancellation (docs/payments.md). */
export function paymentPolicyPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    form: FormState | undefined,
    status = 200,
  ) {
    const { workspace } = await panelContextOf(request);
    const service = await getService(deps.db, workspace.id, uuidParam(request, 'serviceId'));
    const [policy, settings] = await Promise.all([
      getPaymentPolicy(deps.db, workspace.id, service.id),
      paymentSettingsView(deps.db, workspace.id, deps.config),
    ]);
    const saved = (request.query as Record<string, string | undefined>).notice === 'saved';
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('policy.pageTitle', { service: service.name }),
      status,
      body: PaymentPolicyPage({
        service: { id: service.id, name: service.name },
        csrf: reply.csrf(),
        currency: workspace.currency,
        connected: settings.connected,
        notice: saved ? text.t('policy.saved') : undefined,
        text,
        form: form ?? {
          errors: {},
          values: {
            collect: policy.collect,
            deposit_type: policy.deposit_type,
            deposit_percent: policy.deposit_percent === null ? '' : String(policy.deposit_percent),
            deposit_amount:
              policy.deposit_amount === null
                ? ''
                : moneyInputValue(policy.deposit_amount, workspace.currency),
            preset: policy.preset,
            free_cancellation_hours: String(policy.free_cancellation_hours),
            late_cancel_fee_percent: String(policy.late_cancel_fee_percent),
            no_show_fee_percent: String(policy.no_show_fee_percent),
          },
        },
      }),
    });
  }

  panel.get('/setup/services/:serviceId/payment', access, (request, reply) =>
    render(request, reply, undefined),
  );

  panel.post('/setup/services/:serviceId/payment', access, async (request, reply) => {
    const { workspace } = await panelContextOf(request);
    const serviceId = uuidParam(request, 'serviceId');
    const values: FormState['values'] = Object.fromEntries(
      FIELDS.map((field) => [field, str(request.body, field)]),
    );
    try {
      const { input, errors } = inputOf(values, workspace.currency, panelTextOf(request).t);
      if (!input) throw validationFailed(errors);
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await setPaymentPolicy(uow, workspace.id, userActor(sessionOf(request).user.id), serviceId, input);
        return `${policyPage(serviceId)}?notice=saved`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return render(request, reply, { values, errors: formErrorsOf(error, panelTextOf(request).t) }, 422);
    }
  });
}
