import type { VNode } from 'preact';
import { ErrorSummary, FieldError, type FormState, fieldId, PostForm } from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { weekdayName } from '../../platform/time/format.js';
import { WEEKDAYS } from '../schedules.rules.js';
import { RANGE_ROWS, rowsIn } from './schedule-form.js';

const textOf = (form: FormState, name: string) => {
  const value = form.values[name];
  return typeof value === 'string' ? value : '';
};

/** Errors filed under exactly this key (a day or a list), not under its ranges. */
function ExactError({ form, name }: { form: FormState; name: string }) {
  const messages = form.errors[name];
  if (!messages || messages.length === 0) return null;
  return (
    <p class="error" id={`${fieldId(name)}-error`}>
      {messages.join(' ')}
    </p>
  );
}

const hasErrors = (form: FormState, name: string) =>
  Object.keys(form.errors).some((key) => key === name || key.startsWith(`${name}.`));

/** One from-to pair of time inputs; its errors (overlap, bad time) sit right under it. */
function Range({
  form,
  name,
  label,
  text,
}: {
  form: FormState;
  name: string;
  label: string;
  text: PanelText;
}) {
  const invalid = hasErrors(form, name);
  const described = invalid ? `${fieldId(name)}-error` : undefined;
  const input = (end: 'from' | 'to') => (
    <>
      <label class="visually-hidden" for={fieldId(`${name}.${end}`)}>
        {text.t(end === 'from' ? 'hoursPage.from' : 'hoursPage.until', { label })}
      </label>
      <input
        type="time"
        id={fieldId(`${name}.${end}`)}
        name={`${name}.${end}`}
        value={textOf(form, `${name}.${end}`)}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={described}
      />
    </>
  );
  return (
    <div class={`range${invalid ? ' has-error' : ''}`}>
      {input('from')}
      <span aria-hidden="true">–</span>
      {input('to')}
      <FieldError form={form} name={name} />
    </div>
  );
}

function Ranges({
  form,
  name,
  label,
  text,
}: {
  form: FormState;
  name: string;
  label: string;
  text: PanelText;
}) {
  const rows = Math.max(RANGE_ROWS, rowsIn(form.values as Record<string, string>, name));
  return (
    <>
      {Array.from({ length: rows }, (_, index) => (
        <Range
          form={form}
          name={`${name}.${index}`}
          label={text.t('hoursPage.rangeN', { label, n: index + 1 })}
          text={text}
        />
      ))}
      <ExactError form={form} name={name} />
    </>
  );
}

function OverrideRow({
  form,
  index,
  existing,
  text,
}: {
  form: FormState;
  index: number;
  existing: boolean;
  text: PanelText;
}) {
  const { t } = text;
  const at = `overrides.${index}`;
  const mode = textOf(form, `${at}.mode`) || 'off';
  const modeId = fieldId(`${at}.mode`);
  return (
    <fieldset class={`override${hasErrors(form, at) ? ' has-error' : ''}`} id={fieldId(at)}>
      <legend>
        {existing
          ? t('hoursPage.dateOf', { date: textOf(form, `${at}.date`) || String(index + 1) })
          : t('hoursPage.newDate', { n: index + 1 })}
      </legend>
      <div class="row">
        <div class="field">
          <label for={fieldId(`${at}.date`)}>{t('hoursPage.date')}</label>
          <input
            type="date"
            id={fieldId(`${at}.date`)}
            name={`${at}.date`}
            value={textOf(form, `${at}.date`)}
            aria-invalid={hasErrors(form, `${at}.date`) ? 'true' : undefined}
            aria-describedby={hasErrors(form, `${at}.date`) ? `${fieldId(`${at}.date`)}-error` : undefined}
          />
          <FieldError form={form} name={`${at}.date`} />
        </div>
        <div class="field">
          <label for={modeId}>{t('hoursPage.thatDay')}</label>
          <select id={modeId} name={`${at}.mode`}>
            <option value="off" selected={mode === 'off'}>
              {t('hoursPage.dayOff')}
            </option>
            <option value="hours" selected={mode === 'hours'}>
              {t('hoursPage.special')}
            </option>
          </select>
        </div>
        {existing && (
          <label class="remove">
            <input
              type="checkbox"
              name={`${at}.remove`}
              value="1"
              checked={textOf(form, `${at}.remove`) !== ''}
            />{' '}
            {t('hoursPage.remove')}
          </label>
        )}
      </div>
      <div class="row override-hours">
        <div>
          <p class="sub">{t('hoursPage.special')}</p>
          <Ranges form={form} name={`${at}.intervals`} label={t('hoursPage.special')} text={text} />
        </div>
        <div>
          <p class="sub">{t('hoursPage.breaks')}</p>
          <Ranges form={form} name={`${at}.breaks`} label={t('week.break')} text={text} />
        </div>
      </div>
      <ExactError form={form} name={at} />
    </fieldset>
  );
}

export function SchedulePage(props: {
  form: FormState;
  csrf: string;
  action: string;
  stafferName: string;
  stafferPath: string;
  locationName: string;
  timezone: string;
  /** How many override rows hold stored dates (the rest are empty rows for new ones). */
  existingOverrides: number;
  overrideRows: number;
  preview: VNode | null;
  notice?: string | undefined;
  text: PanelText;
}) {
  const { form, text } = props;
  const { t } = text;
  const dayName = (day: (typeof WEEKDAYS)[number]) => weekdayName(day, text.locale, 'long');
  return (
    <>
      <p class="crumbs">
        {t('nav.setup')} / <a href={`${PANEL_PREFIX}/setup/staffers`}>{t('nav.staffers')}</a> /{' '}
        <a href={props.stafferPath}>{props.stafferName}</a> /
      </p>
      <h1>{t('hoursPage.heading', { name: props.stafferName, location: props.locationName })}</h1>
      <p class="lead">{t('hoursPage.lead', { timezone: props.timezone })}</p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.preview}
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm
          action={props.action}
          csrf={props.csrf}
          label={t('staffers.hoursAt', { location: props.locationName })}
        >
          <fieldset class="week" id={fieldId('weekly')}>
            <legend>{t('hoursPage.everyWeek')}</legend>
            <p class="hint">{t('hoursPage.weekHint')}</p>
            <div class="table-wrap">
              <table class="stack hours">
                <thead>
                  <tr>
                    <th scope="col">{t('hoursPage.day')}</th>
                    <th scope="col">{t('staffers.hours')}</th>
                    <th scope="col" id={fieldId('breaks')}>
                      {t('hoursPage.breaks')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {WEEKDAYS.map((day) => (
                    <tr>
                      <th scope="row">{dayName(day)}</th>
                      <td data-label={t('staffers.hours')}>
                        <Ranges
                          form={form}
                          name={`weekly.${day}`}
                          label={t('hoursPage.dayWorking', { day: dayName(day) })}
                          text={text}
                        />
                      </td>
                      <td data-label={t('hoursPage.breaks')}>
                        <Ranges
                          form={form}
                          name={`breaks.${day}`}
                          label={t('hoursPage.dayBreak', { day: dayName(day) })}
                          text={text}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <ExactError form={form} name="weekly" />
            <ExactError form={form} name="breaks" />
          </fieldset>
          <fieldset class="overrides" id={fieldId('overrides')}>
            <legend>{t('hoursPage.overrides')}</legend>
            <p class="hint">{t('hoursPage.overridesHint')}</p>
            <ExactError form={form} name="overrides" />
            {Array.from({ length: props.overrideRows }, (_, index) => (
              <OverrideRow form={form} index={index} existing={index < props.existingOverrides} text={text} />
            ))}
          </fieldset>
          {/* Save comes first: Enter in a field presses a form's first button. */}
          <div class="row">
            <button type="submit">{t('hoursPage.save')}</button>
            <button type="submit" name="add_override" value="1" class="secondary">
              {t('hoursPage.addDate')}
            </button>
          </div>
        </PostForm>
      </div>
    </>
  );
}
