import type { VNode } from 'preact';
import { ErrorSummary, FieldError, type FormState, fieldId, PostForm } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { WEEKDAYS, type Weekday } from '../schedules.rules.js';
import { RANGE_ROWS, rowsIn } from './schedule-form.js';

const DAY_LABELS: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

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
function Range({ form, name, label }: { form: FormState; name: string; label: string }) {
  const invalid = hasErrors(form, name);
  const described = invalid ? `${fieldId(name)}-error` : undefined;
  const input = (end: 'from' | 'to') => (
    <>
      <label class="visually-hidden" for={fieldId(`${name}.${end}`)}>
        {label} {end === 'from' ? 'from' : 'until'}
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

function Ranges({ form, name, label }: { form: FormState; name: string; label: string }) {
  const rows = Math.max(RANGE_ROWS, rowsIn(form.values as Record<string, string>, name));
  return (
    <>
      {Array.from({ length: rows }, (_, index) => (
        <Range form={form} name={`${name}.${index}`} label={`${label} ${index + 1}`} />
      ))}
      <ExactError form={form} name={name} />
    </>
  );
}

function OverrideRow({ form, index, existing }: { form: FormState; index: number; existing: boolean }) {
  const at = `overrides.${index}`;
  const mode = textOf(form, `${at}.mode`) || 'off';
  const modeId = fieldId(`${at}.mode`);
  return (
    <fieldset class={`override${hasErrors(form, at) ? ' has-error' : ''}`} id={fieldId(at)}>
      <legend>
        {existing ? `Date ${textOf(form, `${at}.date`) || index + 1}` : `New date ${index + 1}`}
      </legend>
      <div class="row">
        <div class="field">
          <label for={fieldId(`${at}.date`)}>Date</label>
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
          <label for={modeId}>That day</label>
          <select id={modeId} name={`${at}.mode`}>
            <option value="off" selected={mode === 'off'}>
              Day off
            </option>
            <option value="hours" selected={mode === 'hours'}>
              Special hours
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
            Remove this date
          </label>
        )}
      </div>
      <div class="row override-hours">
        <div>
          <p class="sub">Special hours</p>
          <Ranges form={form} name={`${at}.intervals`} label="Special hours" />
        </div>
        <div>
          <p class="sub">Breaks</p>
          <Ranges form={form} name={`${at}.breaks`} label="Break" />
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
}) {
  const { form } = props;
  return (
    <>
      <p class="crumbs">
        Setup / <a href={`${PANEL_PREFIX}/setup/staffers`}>Staff and hours</a> /{' '}
        <a href={props.stafferPath}>{props.stafferName}</a> /
      </p>
      <h1>
        Hours of {props.stafferName} at {props.locationName}
      </h1>
      <p class="lead">
        Times are local to the location ({props.timezone}). A range ending at or before its start runs past
        midnight (18:00–00:00 ends at midnight).
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.preview}
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={props.action} csrf={props.csrf} label={`Hours at ${props.locationName}`}>
          <fieldset class="week" id={fieldId('weekly')}>
            <legend>Every week</legend>
            <p class="hint">
              Leave a day empty for a day off. Breaks must lie within the day's working hours.
            </p>
            <div class="table-wrap">
              <table class="stack hours">
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Working hours</th>
                    <th scope="col" id={fieldId('breaks')}>
                      Breaks
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {WEEKDAYS.map((day) => (
                    <tr>
                      <th scope="row">{DAY_LABELS[day]}</th>
                      <td data-label="Working hours">
                        <Ranges
                          form={form}
                          name={`weekly.${day}`}
                          label={`${DAY_LABELS[day]} working hours`}
                        />
                      </td>
                      <td data-label="Breaks">
                        <Ranges form={form} name={`breaks.${day}`} label={`${DAY_LABELS[day]} break`} />
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
            <legend>Date overrides</legend>
            <p class="hint">
              A date here replaces that weekday's hours and breaks: a day off, or special hours. Fill the
              empty date to add one, "Add another date" for more; tick "Remove this date" to drop one.
            </p>
            <ExactError form={form} name="overrides" />
            {Array.from({ length: props.overrideRows }, (_, index) => (
              <OverrideRow form={form} index={index} existing={index < props.existingOverrides} />
            ))}
          </fieldset>
          {/* Save comes first: Enter in a field presses a form's first button. */}
          <div class="row">
            <button type="submit">Save hours</button>
            <button type="submit" name="add_override" value="1" class="secondary">
              Add another date
            </button>
          </div>
        </PostForm>
      </div>
    </>
  );
}
