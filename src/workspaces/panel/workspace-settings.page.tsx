import { ErrorSummary, type FormState, PostForm, SelectField, TextField } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import {
  BOOKING_FORM_FIELDS,
  BOOKING_FORM_MODES,
  SETTINGS_LIMITS,
  STAFFER_SELECTIONS,
} from '../workspace-settings.rules.js';

export const WORKSPACE_SETTINGS = `${PANEL_PREFIX}/settings/workspace`;

const FORM_FIELD_LABELS: Record<(typeof BOOKING_FORM_FIELDS)[number], string> = {
  customer_first_name: 'Customer’s first name',
  customer_last_name: 'Customer’s last name',
  customer_email: 'Customer’s email',
  booking_comment: 'Comment on the booking',
  booking_callback: 'Call back before the visit',
};

const MODE_LABELS: Record<(typeof BOOKING_FORM_MODES)[number], string> = {
  hidden: 'Hidden',
  optional: 'Optional',
  required: 'Required',
};

const SELECTION_LABELS: Record<(typeof STAFFER_SELECTIONS)[number], string> = {
  required: 'The customer chooses the staffer',
  automatic: 'Kairos assigns a free staffer',
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
export function WorkspaceSettingsPage(props: { form: FormState; csrf: string; saved?: boolean }) {
  const { form } = props;
  return (
    <>
      <p class="crumbs">Settings /</p>
      <h1>Workspace</h1>
      <p class="lead">
        The business's settings, as integrations read them from <code>GET /workspace</code> and change them
        with <code>PATCH /workspace</code>.
      </p>
      {props.saved && (
        <p class="notice" role="status">
          The settings are saved.
        </p>
      )}
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={WORKSPACE_SETTINGS} csrf={props.csrf} label="Workspace settings">
          <section aria-labelledby="ws-business">
            <h2 id="ws-business">Business</h2>
            <TextField
              form={form}
              name="name"
              label="Name"
              hint="As customers see it."
              autocomplete="organization"
            />
            <TextField
              form={form}
              name="country_iso"
              label="Country"
              hint="Two-letter ISO 3166-1 code, such as DE, AT or US. Leave empty to clear it."
              autocomplete="country"
            />
            <TextField
              form={form}
              name="contacts.phone"
              label="Phone"
              hint="International format, such as +49 30 1234567. Leave empty to clear it."
              autocomplete="tel"
            />
            <TextField form={form} name="contacts.email" label="Email" type="email" autocomplete="email" />
          </section>
          <section aria-labelledby="ws-money">
            <h2 id="ws-money">Currency and language</h2>
            <div class="form-grid">
              <TextField
                form={form}
                name="currency"
                label="Currency"
                hint="ISO 4217 code in capitals, such as EUR. Changing it does not convert the prices."
                list="currencies"
                autocomplete="off"
              />
              <TextField
                form={form}
                name="locale"
                label="Locale"
                hint="How prices and dates are written: a language tag such as de-DE or en-US."
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
            <h2 id="ws-form">Booking form</h2>
            <p class="muted">
              What the booking page asks of a customer. What the form requires, the API requires too: a
              booking without a required field is refused with a 422.
            </p>
            <div class="form-grid">
              {BOOKING_FORM_FIELDS.map((field) => (
                <SelectField
                  form={form}
                  name={`booking_form.${field}`}
                  label={FORM_FIELD_LABELS[field]}
                  options={BOOKING_FORM_MODES.map((mode) => ({ value: mode, label: MODE_LABELS[mode] }))}
                />
              ))}
            </div>
          </section>
          <section aria-labelledby="ws-rules">
            <h2 id="ws-rules">Booking rules</h2>
            <SelectField
              form={form}
              name="staffer_selection"
              label="Staffer selection"
              options={STAFFER_SELECTIONS.map((mode) => ({ value: mode, label: SELECTION_LABELS[mode] }))}
            />
            <div class="form-grid">
              <TextField
                form={form}
                name="slot_step_minutes"
                label="Slot step (minutes)"
                hint="How far apart start times are; it divides a day evenly: 5, 10, 15, 20, 30, 60…"
                type="number"
                min="5"
                max="720"
                step="1"
              />
              <TextField
                form={form}
                name="min_notice_minutes"
                label="Minimum notice (minutes)"
                hint="How soon a booking may start at the earliest, counted from now. 120 = two hours."
                type="number"
                min={String(SETTINGS_LIMITS.min_notice_minutes.min)}
                max={String(SETTINGS_LIMITS.min_notice_minutes.max)}
                step="1"
              />
              <TextField
                form={form}
                name="horizon_days"
                label="Booking horizon (days)"
                hint="How far ahead customers may book."
                type="number"
                min={String(SETTINGS_LIMITS.horizon_days.min)}
                max={String(SETTINGS_LIMITS.horizon_days.max)}
                step="1"
              />
              <TextField
                form={form}
                name="manage_cutoff_minutes"
                label="Changes allowed until (minutes before)"
                hint="Customers may cancel or reschedule on their manage link until this long before the start."
                type="number"
                min={String(SETTINGS_LIMITS.manage_cutoff_minutes.min)}
                max={String(SETTINGS_LIMITS.manage_cutoff_minutes.max)}
                step="1"
              />
            </div>
          </section>
          <button type="submit">Save settings</button>
        </PostForm>
      </div>
    </>
  );
}
