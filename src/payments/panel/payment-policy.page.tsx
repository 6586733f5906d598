import { ErrorSummary, type FormState, PostForm, SelectField, TextField } from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { moneyInputValue } from '../../platform/money.js';
import { PRESETS } from '../payment-policy.rules.js';

const SERVICES = `${PANEL_PREFIX}/setup/services`;

/** The page of a service's payment and cancellation policy. */
export const policyPage = (serviceId: string) => `${SERVICES}/${serviceId}/payment`;

const COLLECT_OPTIONS: { value: string; label: PanelKey }[] = [
  { value: 'none', label: 'policy.collect.none' },
  { value: 'deposit', label: 'policy.collect.deposit' },
  { value: 'prepayment', label: 'policy.collect.prepayment' },
  { value: 'card_on_file', label: 'policy.collect.card_on_file' },
];

const PRESET_LABEL = {
  flexible: 'policy.preset.flexible',
  moderate: 'policy.preset.moderate',
  strict: 'policy.preset.strict',
  custom: 'policy.preset.custom',
} as const satisfies Record<string, PanelKey>;

/** What each preset keeps, in words, under the choice. */
function PresetTerms({ t }: { t: PanelText['t'] }) {
  return (
    <ul class="muted">
      {(['flexible', 'moderate', 'strict'] as const).map((preset) => {
        const { freeHours, lateFeePercent, noShowFeePercent } = PRESETS[preset];
        return (
          <li>
            {t('policy.presetTerms', {
              preset: t(PRESET_LABEL[preset]),
              hours: freeHours,
              late: lateFeePercent,
              noShow: noShowFeePercent,
            })}
          </li>
        );
      })}
      <li>{t('policy.customTerms')}</li>
    </ul>
  );
}

/**
 * Setup → Services → a service → Payment and cancellation (owners and admins): what a booking of
 * it collects (through the API's `collect_payment` and the booking page, once a provider is
 * connected), and what a late cancel or a no-show keeps.
 */
export function PaymentPolicyPage(props: {
  service: { id: string; name: string };
  form: FormState;
  csrf: string;
  currency: string;
  connected: boolean;
  notice?: string | undefined;
  text: PanelText;
}) {
  const { form, service, currency } = props;
  const { t } = props.text;
  return (
    <>
      <p class="crumbs">
        {t('nav.setup')} / <a href={SERVICES}>{t('nav.services')}</a> /{' '}
        <a href={`${SERVICES}/${service.id}`}>{service.name}</a> /
      </p>
      <h1>{t('policy.title')}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {!props.connected && (
        <p class="notice">
          {withElements((values) => t('policy.notConnected', values), {
            link: <a href={`${PANEL_PREFIX}/settings/payments`}>{t('policy.settingsPayments')}</a>,
          })}
        </p>
      )}
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={policyPage(service.id)} csrf={props.csrf} label={t('policy.title')}>
          <SelectField
            form={form}
            name="collect"
            label={t('policy.collect')}
            options={COLLECT_OPTIONS.map((option) => ({ value: option.value, label: t(option.label) }))}
          />
          <fieldset>
            <legend>{t('policy.deposit')}</legend>
            <div class="form-grid">
              <SelectField
                form={form}
                name="deposit_type"
                label={t('policy.depositAs')}
                options={[
                  { value: 'percent', label: t('policy.depositPercent') },
                  { value: 'fixed', label: t('policy.depositFixed') },
                ]}
              />
              <TextField
                form={form}
                name="deposit_percent"
                label={t('policy.percentage')}
                type="number"
                min="1"
                max="100"
                step="1"
              />
              <TextField
                form={form}
                name="deposit_amount"
                label={t('policy.fixedAmount', { currency })}
                hint={t('policy.suchAs', { amount: moneyInputValue(2000, currency) })}
                autocomplete="off"
              />
            </div>
          </fieldset>
          <SelectField
            form={form}
            name="preset"
            label={t('policy.terms')}
            options={(['flexible', 'moderate', 'strict', 'custom'] as const).map((preset) => ({
              value: preset,
              label: t(PRESET_LABEL[preset]),
            }))}
          />
          <PresetTerms t={t} />
          <fieldset>
            <legend>{t('policy.customLegend')}</legend>
            <div class="form-grid">
              <TextField
                form={form}
                name="free_cancellation_hours"
                label={t('policy.freeHours')}
                type="number"
                min="0"
                max="720"
                step="1"
              />
              <TextField
                form={form}
                name="late_cancel_fee_percent"
                label={t('policy.lateFee')}
                type="number"
                min="0"
                max="100"
                step="1"
              />
              <TextField
                form={form}
                name="no_show_fee_percent"
                label={t('policy.noShowFee')}
                type="number"
                min="0"
                max="100"
                step="1"
              />
            </div>
          </fieldset>
          <button type="submit">{t('policy.save')}</button>
        </PostForm>
      </div>
    </>
  );
}
