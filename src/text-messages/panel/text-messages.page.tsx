import {
  ErrorSummary,
  FieldError,
  type FormState,
  fieldId,
  PostForm,
  SelectField,
  TextField,
} from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { TextKind } from '../../platform/db/schema.js';
import { LANGUAGE_NAMES, LANGUAGES, type Lang } from '../../platform/i18n.js';
import type { SegmentCount } from '../segments.rules.js';
import type { TextRow } from '../text-messages.repository.js';
import { CUSTOMER_TEXTS, TEXT_PROVIDERS } from '../text-settings.rules.js';
import { textPanelWords, textStateLabel } from './text-messages.texts.js';

export const TEXTS_PAGE = `${PANEL_PREFIX}/settings/notifications/texts`;

const when = (date: Date | null) =>
  date === null ? '—' : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const money = (micros: number | null, unit: string | null) =>
  micros === null
    ? '—'
    : `${(micros / 1_000_000).toFixed(micros % 10_000 === 0 ? 2 : 4)} ${unit ?? ''}`.trim();

export interface TextMessagesPageProps {
  csrf: string;
  form: FormState;
  testForm: FormState;
  locations: { id: string; name: string; zone: string; start: string; end: string }[];
  quietErrors?: { locationId: string; form: FormState };
  hasAuthToken: boolean;
  hasGatewaySecret: boolean;
  canSaveCredentials: boolean;
  hookBase: string;
  previewLang: Lang;
  preview: { kind: TextKind; body: string; count: SegmentCount }[];
  totals: { month: string; unit: string; messages: number; segments: number; price_micros: number }[];
  log: TextRow[];
  total: number;
  page: number;
  perPage: number;
  notice?: string;
  problem?: string;
  text: PanelText;
}

export function TextMessagesPage(props: TextMessagesPageProps) {
  const { form } = props;
  const { t } = props.text;
  const T = textPanelWords(t);
  const chosen = new Set(Array.isArray(form.values.customer_texts) ? form.values.customer_texts : []);
  const hours = Array.isArray(form.values.reminder_hours) ? form.values.reminder_hours : [];
  const pages = Math.max(1, Math.ceil(props.total / props.perPage));
  const checked = (name: string) => form.values[name] === 'on';
  return (
    <>
      <p class="crumbs">
        {t('nav.settings')} / <a href={`${PANEL_PREFIX}/settings/notifications`}>{t('nav.notifications')}</a>{' '}
        / {T.title}
      </p>
      <h1>{T.title}</h1>
      <p class="lead">{T.lead}</p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.problem && (
        <div class="errors-summary" role="alert">
          <p>{props.problem}</p>
        </div>
      )}
      {!props.canSaveCredentials && (
        <p class="notice" role="note">
          {T.noSecretKey}
        </p>
      )}

      <div class="card">
        <h2>{T.settings}</h2>
        <ErrorSummary form={form} />
        <PostForm action={TEXTS_PAGE} csrf={props.csrf} label={T.settings}>
          <div class="field checks">
            <label>
              <input type="checkbox" name="enabled" value="on" checked={checked('enabled')} /> {T.enabled}
            </label>
            <span class="hint">{T.enabledHint}</span>
          </div>
          <SelectField
            form={form}
            name="provider"
            label={T.provider}
            options={TEXT_PROVIDERS.map((value) => ({ value, label: T.providers[value] }))}
          />
          <fieldset
            class={`field checks${form.errors.customer_texts ? ' has-error' : ''}`}
            id={fieldId('customer_texts')}
          >
            <legend>{T.customerTexts}</legend>
            {CUSTOMER_TEXTS.map((kind) => (
              <label>
                <input type="checkbox" name="customer_texts" value={kind} checked={chosen.has(kind)} />{' '}
                {T.kinds[kind]}
              </label>
            ))}
            <FieldError form={form} name="customer_texts" />
          </fieldset>
          <fieldset
            class={`field${form.errors.reminder_hours ? ' has-error' : ''}`}
            id={fieldId('reminder_hours')}
          >
            <legend>{T.reminders}</legend>
            <span class="hint">{T.remindersHint}</span>
            <div class="row">
              {[0, 1].map((index) => (
                <label class="inline-field">
                  <span>{index === 0 ? T.firstReminder : T.secondReminder}</span>
                  <input
                    type="text"
                    inputmode="decimal"
                    name="reminder_hours"
                    value={hours[index] ?? ''}
                    size={6}
                  />
                </label>
              ))}
            </div>
            <FieldError form={form} name="reminder_hours" />
          </fieldset>
          <div class="field checks">
            <label>
              <input type="checkbox" name="whatsapp" value="on" checked={checked('whatsapp')} /> {T.whatsapp}
            </label>
          </div>
          <SelectField
            form={form}
            name="consent"
            label={T.consent}
            options={[
              { value: 'optional', label: T.consents.optional },
              { value: 'required', label: T.consents.required },
            ]}
          />
          <TextField form={form} name="sender" label={T.sender} hint={T.senderHint} autocomplete="off" />
          <TextField form={form} name="twilio_account_sid" label={T.accountSid} autocomplete="off" />
          <TextField
            form={form}
            name="twilio_auth_token"
            label={T.authToken}
            type="password"
            autocomplete="new-password"
            {...(props.hasAuthToken ? { hint: T.savedSecret } : {})}
          />
          <TextField form={form} name="gateway_url" label={T.gatewayUrl} type="url" autocomplete="off" />
          <TextField
            form={form}
            name="gateway_secret"
            label={T.gatewaySecret}
            type="password"
            autocomplete="new-password"
            {...(props.hasGatewaySecret ? { hint: T.savedSecret } : {})}
          />
          <button type="submit">{T.save}</button>
        </PostForm>
      </div>

      <div class="card">
        <h2>{T.hooks}</h2>
        <p class="muted">{T.hooksHint}</p>
        {(
          [
            [T.twilioInbound, 'twilio/inbound'],
            [T.gatewayInbound, 'gateway/inbound'],
            [T.gatewayStatus, 'gateway/status'],
          ] as const
        ).map(([label, suffix]) => (
          <p class="wrap">
            {label}
            <br />
            <code>{`${props.hookBase}/${suffix}`}</code>
          </p>
        ))}
      </div>

      <div class="card">
        <h2 id="quiet-hours">{T.quietHours}</h2>
        <p class="muted">{T.quietHoursHint}</p>
        {props.locations.map((location) => {
          const form: FormState =
            props.quietErrors?.locationId === location.id
              ? props.quietErrors.form
              : { values: { start: location.start, end: location.end }, errors: {} };
          const id = `q-${location.id.slice(0, 8)}`;
          return (
            <PostForm
              action={`${TEXTS_PAGE}/locations/${location.id}`}
              csrf={props.csrf}
              label={`${T.quietHours}: ${location.name}`}
            >
              <h3>
                {location.name} <span class="muted">({location.zone})</span>
              </h3>
              <div class="row">
                <TextField form={form} name="start" id={`${id}-start`} label={T.quietFrom} type="time" />
                <TextField form={form} name="end" id={`${id}-end`} label={T.quietTo} type="time" />
              </div>
              <FieldError form={form} name="quiet_hours" id={id} />
              <button type="submit" class="secondary">
                {T.quietSave}
              </button>
            </PostForm>
          );
        })}
      </div>

      <div class="card">
        <h2>{T.test}</h2>
        <ErrorSummary form={props.testForm} />
        <PostForm action={`${TEXTS_PAGE}/test`} csrf={props.csrf} label={T.test}>
          <TextField form={props.testForm} name="phone" label={T.testPhone} type="tel" autocomplete="off" />
          <button type="submit" class="secondary">
            {T.testButton}
          </button>
        </PostForm>
      </div>

      <div class="card">
        <h2 id="preview">{T.preview}</h2>
        <p class="muted">{T.previewHint}</p>
        <nav class="row" aria-label={T.preview}>
          {LANGUAGES.map((lang) =>
            lang === props.previewLang ? (
              <strong>{LANGUAGE_NAMES[lang]}</strong>
            ) : (
              <a href={`${TEXTS_PAGE}?lang=${lang}#preview`}>{LANGUAGE_NAMES[lang]}</a>
            ),
          )}
        </nav>
        {props.preview.map((entry) => (
          <div class="text-preview" data-kind={entry.kind}>
            <h3>{T.kinds[entry.kind]}</h3>
            <pre class="excerpt mail-text" dir="auto">
              {entry.body}
            </pre>
            <p class="muted">
              {entry.count.units} · {T.segments(entry.count.segments, entry.count.encoding)}
            </p>
          </div>
        ))}
      </div>

      <h2 id="totals">{T.totals}</h2>
      {props.totals.length === 0 ? (
        <p class="muted">{T.noTotals}</p>
      ) : (
        <div class="table-wrap">
          <table class="stack" aria-label={T.totals}>
            <thead>
              <tr>
                <th scope="col">{T.columns.month}</th>
                <th scope="col">{T.columns.messages}</th>
                <th scope="col">{T.columns.segments}</th>
                <th scope="col">{T.columns.price}</th>
              </tr>
            </thead>
            <tbody>
              {props.totals.map((row) => (
                <tr>
                  <td data-label={T.columns.month}>{row.month}</td>
                  <td data-label={T.columns.messages}>{row.messages}</td>
                  <td data-label={T.columns.segments}>{row.segments}</td>
                  <td data-label={T.columns.price}>
                    {row.unit && row.price_micros > 0 ? money(row.price_micros, row.unit) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 id="log">{T.log}</h2>
      <p class="muted">
        {props.total === 0 ? T.noLog : T.logCount(props.total)} <a href={`${TEXTS_PAGE}#log`}>{T.refresh}</a>
      </p>
      {props.log.length > 0 && (
        <div class="table-wrap">
          <table class="stack" aria-label={T.log}>
            <thead>
              <tr>
                <th scope="col">{T.columns.message}</th>
                <th scope="col">{T.columns.to}</th>
                <th scope="col">{T.columns.status}</th>
                <th scope="col">{T.columns.segments}</th>
                <th scope="col">{T.columns.price}</th>
                <th scope="col">{T.columns.answer}</th>
              </tr>
            </thead>
            <tbody>
              {props.log.map((row) => {
                const status = textStateLabel(row.state, t);
                return (
                  <tr data-text={row.id}>
                    <td data-label={T.columns.message} class="wrap">
                      <strong>{T.kinds[row.kind]}</strong> · {row.channel === 'whatsapp' ? 'WhatsApp' : 'SMS'}
                      <div class="muted">
                        {row.sent_at ? T.sentAt(when(row.sent_at)) : T.dueAt(when(row.due_at))}
                      </div>
                      {row.body && (
                        <pre class="excerpt mail-text" dir="auto">
                          {row.body}
                        </pre>
                      )}
                    </td>
                    <td data-label={T.columns.to} class="wrap">
                      {row.recipient}
                    </td>
                    <td data-label={T.columns.status}>
                      <span class={`badge ${status.badge}`}>{status.label}</span>
                      {row.attempt_count > 1 && <div class="muted">{T.attempts(row.attempt_count)}</div>}
                      {(row.state === 'failed' || row.state === 'undelivered') && (
                        <PostForm
                          action={`${TEXTS_PAGE}/messages/${row.id}/resend`}
                          csrf={props.csrf}
                          class="inline"
                        >
                          <button type="submit" class="secondary">
                            {T.resend}
                            <span class="skip-label"> {row.recipient}</span>
                          </button>
                        </PostForm>
                      )}
                    </td>
                    <td data-label={T.columns.segments}>{row.segments ?? '—'}</td>
                    <td data-label={T.columns.price}>{money(row.price_micros, row.price_unit)}</td>
                    <td data-label={T.columns.answer} class="wrap">
                      {row.last_response ? <code>{row.last_response}</code> : <span class="muted">—</span>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <nav class="row" aria-label={T.log}>
          {props.page > 1 && <a href={`${TEXTS_PAGE}?page=${props.page - 1}#log`}>{T.newer}</a>}
          <span class="muted">
            {props.page} / {pages}
          </span>
          {props.page < pages && <a href={`${TEXTS_PAGE}?page=${props.page + 1}#log`}>{T.older}</a>}
        </nav>
      )}
    </>
  );
}
