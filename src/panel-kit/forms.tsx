import type { ComponentChildren } from 'preact';
import type { FieldErrors } from '../errors.js';
import { FormKey } from '../platform/pages/form-key.js';
import { usePanelText } from './i18n.js';

/**
 * Form parts of the panel. Every error sits next to its field (aria-describedby ties them
 * together for screen readers), values come back as typed (never passwords), and every POST form
 * carries the CSRF token.
 */

export interface FormState {
  values: Record<string, string | string[] | undefined>;
  errors: FieldErrors;
}

export const emptyForm = (values: FormState['values'] = {}): FormState => ({ values, errors: {} });

/** The hidden CSRF field (checked by the panel's preHandler, with the Origin header). */
export function Csrf({ token }: { token: string }) {
  return <input type="hidden" name="_csrf" value={token} />;
}

/**
 * A POST form with its CSRF token and a fresh idempotency key: a route that creates or changes
 * something answers a double click or a resubmit with the first submit's redirect.
 */
export function PostForm(props: {
  action: string;
  csrf: string;
  children: ComponentChildren;
  class?: string;
  label?: string;
}) {
  return (
    <form method="post" action={props.action} class={props.class} aria-label={props.label} novalidate>
      <Csrf token={props.csrf} />
      <FormKey />
      {props.children}
    </form>
  );
}

/**
 * The element id of a field: from its name, unless the field says otherwise (`id`), as one whose
 * name is also used by another form on the same page must: ids are unique on a page, names are
 * per form, and a field is named as the API names it.
 */
export function fieldId(name: string): string {
  return `f-${name.replace(/[^a-z0-9_-]/gi, '-')}`;
}

function errorsOf(form: FormState, name: string): string[] {
  return Object.entries(form.errors)
    .filter(([key]) => key === name || key.startsWith(`${name}.`))
    .flatMap(([, messages]) => messages);
}

export function FieldError({ form, name, id }: { form: FormState; name: string; id?: string | undefined }) {
  const messages = errorsOf(form, name);
  if (messages.length === 0) return null;
  return (
    <p class="error" id={`${id ?? fieldId(name)}-error`}>
      {messages.join(' ')}
    </p>
  );
}

export function TextField(props: {
  form: FormState;
  name: string;
  /** The element id, when another form on the page has a field of the same name. */
  id?: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'number' | 'time' | 'date' | 'tel' | 'search';
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  autofocus?: boolean;
  /** For type number/time/date: the browser's own bounds (the server checks them again). */
  min?: string;
  max?: string;
  step?: string;
  /** A <datalist> id offering choices (a searchable list, e.g. IANA time zones). */
  list?: string;
}) {
  const id = props.id ?? fieldId(props.name);
  const invalid = errorsOf(props.form, props.name).length > 0;
  const described = [props.hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ');
  const raw = props.form.values[props.name];
  // Passwords are never sent back to the browser.
  const value = props.type === 'password' ? '' : typeof raw === 'string' ? raw : '';
  return (
    <div class={`field${invalid ? ' has-error' : ''}`}>
      <label for={id}>{props.label}</label>
      {props.hint && (
        <span class="hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      )}
      <input
        id={id}
        name={props.name}
        type={(props.type ?? 'text') as 'text'}
        value={value}
        autocomplete={props.autocomplete}
        required={props.required}
        autofocus={props.autofocus}
        min={props.min}
        max={props.max}
        step={props.step}
        list={props.list}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
      <FieldError form={props.form} name={props.name} id={id} />
    </div>
  );
}

export function TextAreaField(props: {
  form: FormState;
  name: string;
  /** The element id, when another form on the page has a field of the same name. */
  id?: string;
  label: string;
  hint?: string;
  rows?: number;
}) {
  const id = props.id ?? fieldId(props.name);
  const invalid = errorsOf(props.form, props.name).length > 0;
  const described = [props.hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ');
  const raw = props.form.values[props.name];
  return (
    <div class={`field${invalid ? ' has-error' : ''}`}>
      <label for={id}>{props.label}</label>
      {props.hint && (
        <span class="hint" id={`${id}-hint`}>
          {props.hint}
        </span>
      )}
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 3}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={described || undefined}
      >
        {typeof raw === 'string' ? raw : ''}
      </textarea>
      <FieldError form={props.form} name={props.name} id={id} />
    </div>
  );
}

/** A group of checkboxes sharing one name (read back with `list()`); checked = in the form's values. */
export function CheckboxesField(props: {
  form: FormState;
  name: string;
  /** The element id, when another form on the page has a field of the same name. */
  id?: string;
  legend: string;
  options: { value: string; label: string }[];
  hint?: string;
}) {
  const id = props.id ?? fieldId(props.name);
  const invalid = errorsOf(props.form, props.name).length > 0;
  const raw = props.form.values[props.name];
  const checked = new Set(Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : []);
  return (
    <fieldset
      class={`field checks${invalid ? ' has-error' : ''}`}
      id={id}
      aria-describedby={invalid ? `${id}-error` : undefined}
    >
      <legend>{props.legend}</legend>
      {props.hint && <span class="hint">{props.hint}</span>}
      {props.options.map((option) => (
        <label>
          <input type="checkbox" name={props.name} value={option.value} checked={checked.has(option.value)} />
          {option.label}
        </label>
      ))}
      <FieldError form={props.form} name={props.name} id={id} />
    </fieldset>
  );
}

export function SelectField(props: {
  form: FormState;
  name: string;
  /** The element id, when another form on the page has a field of the same name. */
  id?: string;
  label: string;
  options: { value: string; label: string }[];
}) {
  const id = props.id ?? fieldId(props.name);
  const invalid = errorsOf(props.form, props.name).length > 0;
  const value = props.form.values[props.name];
  return (
    <div class={`field${invalid ? ' has-error' : ''}`}>
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
      >
        {props.options.map((option) => (
          <option value={option.value} selected={option.value === value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError form={props.form} name={props.name} id={id} />
    </div>
  );
}

/**
 * At the top of a form with errors: what went wrong, with links to the fields (`ids`: the element
 * ids of fields given one of their own).
 */
export function ErrorSummary({ form, ids = {} }: { form: FormState; ids?: Record<string, string> }) {
  const { t } = usePanelText();
  const entries = Object.entries(form.errors);
  if (entries.length === 0) return null;
  return (
    <div class="errors-summary" role="alert" tabIndex={-1}>
      <h2>{t('kit.errorSummary')}</h2>
      <ul>
        {entries.map(([field, messages]) => {
          const name = field.split('.')[0] ?? field;
          return (
            <li>
              <a href={`#${ids[name] ?? fieldId(name)}`}>{messages.join(' ')}</a>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A secret shown once: selectable text (works without JavaScript) and a copy button island. */
export function SecretValue({ value, label }: { value: string; label: string }) {
  return (
    <div class="secret">
      <span class="visually-hidden">{label}: </span>
      <code id="secret-value">{value}</code>
      <CopySlot target="secret-value" />
    </div>
  );
}

/**
 * Where the copy button island (islands/copy-text.island.tsx) puts its button for the element
 * `target`. Outside English it carries the button's four texts (the island's defaults are the
 * English ones, so English pages send none).
 */
export function CopySlot({ target }: { target: string }) {
  const { lang, t } = usePanelText();
  const texts =
    lang === 'en'
      ? undefined
      : [t('kit.copy'), t('kit.copied'), t('kit.copiedStatus'), t('kit.copyFailed')].join('\n');
  return <span data-copy-target={target} data-copy-texts={texts} />;
}

/** Reads one string field of a urlencoded body. */
export function str(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return '';
}

/** Reads a repeated field (checkboxes) of a urlencoded body. */
export function list(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}
