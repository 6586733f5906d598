import { ErrorSummary, type FormState, PostForm, SelectField, TextField } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { moneyInputValue } from '../../platform/money.js';
import { PRESETS } from '../payment-policy.rules.js';

const SERVICES = `${PANEL_PREFIX}/setup/services`;

/** The page of a service's payment and cancellation policy. */
export const policyPage = (serviceId: string) => `${SERVICES}/${serviceId}/payment`;

const COLLECT_OPTIONS = [
  { value: 'none', label: 'Nothing (paid at the visit)' },
  { value: 'deposit', label: 'A deposit' },
  { value: 'prepayment', label: 'The full price, in advance' },
  { value: 'card_on_file', label: 'A card kept on file, not charged' },
];

const PRESET_OPTIONS = [
  { value: 'flexible', label: 'Flexible' },
  { value: 'moderate', label: 'Moderate' },
  { value: 'strict', label: 'Strict' },
  { value: 'custom', label: 'Custom' },
];

/** What each preset keeps, in words, under the choice. */
function PresetTerms() {
  return (
    <ul class="muted">
      {(['flexible', 'moderate', 'strict'] as const).map((preset) => {
        const { freeHours, lateFeePercent, noShowFeePercent } = PRESETS[preset];
        return (
          <li>
            {preset[0]!.toUpperCase() + preset.slice(1)}: free until {freeHours} h before, then{' '}
            {lateFeePercent}% kept; a no-show keeps {noShowFeePercent}%.
          </li>
        );
      })}
      <li>Custom: the hours and percentages below.</li>
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
}) {
  const { form, service, currency } = props;
  return (
    <>
      <p class="crumbs">
        Setup / <a href={SERVICES}>Services</a> / <a href={`${SERVICES}/${service.id}`}>{service.name}</a> /
      </p>
      <h1>Payment and cancellation</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {!props.connected && (
        <p class="notice">
          No payment provider is connected: the policy is kept, and collects nothing until one is (
          <a href={`${PANEL_PREFIX}/settings/payments`}>Settings → Payments</a>).
        </p>
      )}
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={policyPage(service.id)} csrf={props.csrf} label="Payment and cancellation">
          <SelectField form={form} name="collect" label="When booked, collect" options={COLLECT_OPTIONS} />
          <fieldset>
            <legend>The deposit (when collecting a deposit)</legend>
            <div class="form-grid">
              <SelectField
                form={form}
                name="deposit_type"
                label="Deposit as"
                options={[
                  { value: 'percent', label: 'A percentage of the price' },
                  { value: 'fixed', label: 'A fixed amount' },
                ]}
              />
              <TextField
                form={form}
                name="deposit_percent"
                label="Percentage"
                type="number"
                min="1"
                max="100"
                step="1"
              />
              <TextField
                form={form}
                name="deposit_amount"
                label={`Fixed amount (${currency})`}
                hint={`Such as ${moneyInputValue(2000, currency)}.`}
                autocomplete="off"
              />
            </div>
          </fieldset>
          <SelectField form={form} name="preset" label="Cancellation terms" options={PRESET_OPTIONS} />
          <PresetTerms />
          <fieldset>
            <legend>Custom terms (when the terms are Custom)</legend>
            <div class="form-grid">
              <TextField
                form={form}
                name="free_cancellation_hours"
                label="Free cancellation until (hours before)"
                type="number"
                min="0"
                max="720"
                step="1"
              />
              <TextField
                form={form}
                name="late_cancel_fee_percent"
                label="Late cancel fee (%)"
                type="number"
                min="0"
                max="100"
                step="1"
              />
              <TextField
                form={form}
                name="no_show_fee_percent"
                label="No-show fee (%)"
                type="number"
                min="0"
                max="100"
                step="1"
              />
            </div>
          </fieldset>
          <button type="submit">Save the policy</button>
        </PostForm>
      </div>
    </>
  );
}
