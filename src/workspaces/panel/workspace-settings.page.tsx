import { ErrorSummary, type FormState, PostForm, SelectField, TextField } from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import {
  BOOKING_FORM_FIELDS,
  BOOKING_FORM_MODES,
  SETTINGS_LIMITS,
  STAFFER_SELECTIONS,
} from '../workspace-settings.rules.js';

export const WORKSPACE_SETTINGS = `${PANEL_PREFIX}/settings/workspace`;

const FORM_FIELD_LABELS: Record<(typeof BOOKING_FORM_FIELDS)[number], PanelKey> = {
  customer_first_name: 'ws.field.customer_first_name',
  customer_last_name: 'ws.field.customer_last_name',
  customer_email: 'ws.field.customer_email',
  booking_comment: 'ws.field.booking_comment',
  booking_callback: 'ws.field.booking_callback',
};

const MODE_LABELS: Record<(typeof BOOKING_FORM_MODES)[number], PanelKey> = {
  hidden: 'ws.mode.hidden',
  optional: 'ws.mode.optional',
  required: 'ws.mode.required',
};

const SELECTION_LABELS: Record<(typeof STAFFER_SELECTIONS)[number], PanelKey> = {
  required: 'ws.selection.required',
  automatic: 'ws.selection.automatic',
};

/** Locales offered in the locale field's list (any BCP 47 tag Intl knows may be typed). */
const COMMON_LOCALES = [
  'de-DE',
  'de-AT',
  'de-CH',
  'en-GB',
  'en-US',
  'es-ES',
  'fr-FR',
  'it-IT',
  'nl-NL',
  'pl-PL',
  'pt-PT',
  'sv-SE',
];

let currencies: string[] | undefined;
const currencyCodes = () => {
  currencies ??= Intl.supportedValuesOf('currency');
  return currencies;
};

/** Settings → Workspace: what GET /workspace answers and PATCH /workspace changes. */
export function WorkspaceSettingsPage(props: {
  form: FormState;
  csrf: string;
  saved?: boolean;
  text: PanelText;
}) {
  const { form } = props;
  const { t } = props.text;
  return (
    <>
      <p class="crumbs">{t('nav.settings')} /</p>
      <h1>{t('nav.workspace')}</h1>
      <p class="lead">
        {withElements((values) => t('ws.lead', values), {
          get: <code>GET /workspace</code>,
          patch: <code>PATCH /workspace</code>,
        })}
      </p>
      {props.saved && (
        <p class="notice" role="status">
          {t('ws.saved')}
        </p>
      )}
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={WORKSPACE_SETTINGS} csrf={props.csrf} label={t('ws.formLabel')}>
          <section aria-labelledby="ws-business">
            <h2 id="ws-business">{t('ws.business')}</h2>
            <TextField
              form={form}
              name="name"
              label={t('ws.name')}
              hint={t('ws.nameHint')}
              autocomplete="organization"
            />
            <TextField
              form={form}
              name="country_iso"
              label={t('ws.country')}
              hint={t('ws.countryHint')}
              autocomplete="country"
            />
            <TextField
              form={form}
              name="contacts.phone"
              label={t('ws.phone')}
              hint={t('ws.phoneHint')}
              autocomplete="tel"
            />
            <TextField
              form={form}
              name="contacts.email"
              label={t('ws.email')}
              type="email"
              autocomplete="email"
            />
          </section>
          <section aria-labelledby="ws-money">
            <h2 id="ws-money">{t('ws.money')}</h2>
            <div class="form-grid">
              <TextField
                form={form}
                name="currency"
                label={t('ws.currency')}
                hint={t('ws.currencyHint')}
                list="currencies"
                autocomplete="off"
              />
              <TextField
                form={form}
                name="locale"
                label={t('ws.locale')}
                hint={t('ws.localeHint')}
                list="locales"
                autocomplete="off"
              />
            </div>
            <datalist id="currencies">
              {currencyCodes().map((code) => (
                <option value={code} />
              ))}
            </datalist>
            <datalist id="locales">
              {COMMON_LOCALES.map((tag) => (
                <option value={tag} />
              ))}
            </datalist>
          </section>
          <section aria-labelledby="ws-form">
            <h2 id="ws-form">{t('ws.form')}</h2>
            <p class="muted">{t('ws.formLead')}</p>
            <div class="form-grid">
              {BOOKING_FORM_FIELDS.map((field) => (
                <SelectField
                  form={form}
                  name={`booking_form.${field}`}
                  label={t(FORM_FIELD_LABELS[field])}
                  options={BOOKING_FORM_MODES.map((mode) => ({ value: mode, label: t(MODE_LABELS[mode]) }))}
                />
              ))}
            </div>
          </section>
          <section aria-labelledby="ws-rules">
            <h2 id="ws-rules">{t('ws.rules')}</h2>
            <SelectField
              form={form}
              name="staffer_selection"
              label={t('ws.selection')}
              options={STAFFER_SELECTIONS.map((mode) => ({ value: mode, label: t(SELECTION_LABELS[mode]) }))}
            />
            <div class="form-grid">
              <TextField
                form={form}
                name="slot_step_minutes"
                label={t('ws.slotStep')}
                hint={t('ws.slotStepHint')}
                type="number"
                min="5"
                max="720"
                step="1"
              />
              <TextField
                form={form}
                name="min_notice_minutes"
                label={t('ws.minNotice')}
                hint={t('ws.minNoticeHint')}
                type="number"
                min={String(SETTINGS_LIMITS.min_notice_minutes.min)}
                max={String(SETTINGS_LIMITS.min_notice_minutes.max)}
                step="1"
              />
              <TextField
                form={form}
                name="horizon_days"
                label={t('ws.horizon')}
                hint={t('ws.horizonHint')}
                type="number"
                min={String(SETTINGS_LIMITS.horizon_days.min)}
                max={String(SETTINGS_LIMITS.horizon_days.max)}
                step="1"
              />
              <TextField
                form={form}
                name="manage_cutoff_minutes"
                label={t('ws.cutoff')}
                hint={t('ws.cutoffHint')}
                type="number"
                min={String(SETTINGS_LIMITS.manage_cutoff_minutes.min)}
                max={String(SETTINGS_LIMITS.manage_cutoff_minutes.max)}
                step="1"
              />
            </div>
          </section>
          <button type="submit">{t('ws.save')}</button>
        </PostForm>
      </div>
    </>
  );
}
