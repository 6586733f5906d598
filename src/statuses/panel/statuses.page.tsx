import { ErrorSummary, FieldError, type FormState, PostForm, TextField } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import type { StatusType } from '../../platform/db/schema.js';
import type { StatusRow } from '../statuses.repository.js';

export const STATUSES = `${PANEL_PREFIX}/setup/statuses`;

const TYPE_LABELS: Record<StatusType, string> = {
  new: 'Built in: new bookings',
  confirmed: 'Built in: confirmed',
  custom: 'Custom',
  completed: 'Built in: completed (final)',
  canceled: 'Built in: canceled (final)',
};

const HEX = /^#[0-9a-fA-F]{6}$/;

/** A colour sample; an SVG attribute, since the panel's CSP allows no inline styles. */
export function Swatch({ color }: { color: string }) {
  if (!HEX.test(color)) return null;
  return (
    <svg class="swatch" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <rect width="16" height="16" rx="3" fill={color} stroke="#1b1f24" stroke-opacity=".3" />
    </svg>
  );
}

export function StatusesPage(props: { statuses: StatusRow[]; notice?: string }) {
  const live = props.statuses.filter((status) => status.archived_at === null);
  const archived = props.statuses.filter((status) => status.archived_at !== null);
  return (
    <>
      <p class="crumbs">Setup /</p>
      <h1>Booking statuses</h1>
      <p class="lead">
        The steps a booking goes through, shown in the calendar in their colours. The four built-in ones stay;
        custom ones can be added and archived.
      </p>
      <Notice text={props.notice} />
      <p>
        <a class="button" href={`${STATUSES}/new`}>
          Add a status
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label="Booking statuses">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Colour</th>
              <th scope="col">Kind</th>
            </tr>
          </thead>
          <tbody>
            {live.map((status) => (
              <tr>
                <td data-label="Name">
                  <a href={`${STATUSES}/${status.id}`}>{status.name}</a>{' '}
                  {status.is_default && <span class="badge enabled">Default</span>}
                </td>
                <td data-label="Colour">
                  <Swatch color={status.color} />
                  <code>{status.color}</code>
                </td>
                <td data-label="Kind">{TYPE_LABELS[status.type]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {archived.length > 0 && (
        <>
          <h2>Archived</h2>
          <p class="muted">Bookings that carry them keep them; they are no longer offered.</p>
          <ul class="archived">
            {archived.map((status) => (
              <li>
                {status.name} <ArchivedBadge />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

export function StatusFormPage(props: {
  form: FormState;
  csrf: string;
  /** The status being edited; a new one when absent. */
  status?: StatusRow;
  problem?: string;
}) {
  const { form, status } = props;
  const action = status ? `${STATUSES}/${status.id}` : STATUSES;
  const canBeDefault =
    !status || (!status.is_default && status.type !== 'completed' && status.type !== 'canceled');
  const archivable = status && status.type === 'custom' && !status.is_default;
  const color = typeof form.values.color === 'string' ? form.values.color : '';
  return (
    <>
      <p class="crumbs">
        Setup / <a href={STATUSES}>Booking statuses</a> /
      </p>
      <h1>{status ? status.name : 'Add a status'}</h1>
      {props.problem && (
        <div class="errors-summary" role="alert">
          <h2>Could not be done</h2>
          <p>{props.problem}</p>
        </div>
      )}
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={action} csrf={props.csrf} label={status ? 'Edit the status' : 'Add a status'}>
          {status && <p class="muted">{TYPE_LABELS[status.type]}</p>}
          <TextField form={form} name="name" label="Name" autocomplete="off" />
          <TextField
            form={form}
            name="color"
            label={status ? 'Colour' : 'Colour (optional)'}
            hint="A hex colour #rrggbb, such as #4caf50."
            autocomplete="off"
          />
          {HEX.test(color) && (
            <p class="muted">
              <Swatch color={color} /> Now
            </p>
          )}
          {canBeDefault ? (
            <div class="field checks">
              <label>
                <input
                  type="checkbox"
                  name="is_default"
                  value="true"
                  checked={form.values.is_default === 'true'}
                />
                The default: new bookings get this status
              </label>
              <FieldError form={form} name="is_default" />
            </div>
          ) : (
            status?.is_default && (
              <p class="muted">
                This is the default status of new bookings; make another one the default to change it.
              </p>
            )
          )}
          <button type="submit">{status ? 'Save the status' : 'Add the status'}</button>
        </PostForm>
      </div>
      {archivable && (
        <div class="card">
          <h2>Archive</h2>
          <p>An archived status is no longer offered; bookings that carry it keep it.</p>
          <PostForm action={`${STATUSES}/${status.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              Archive {status.name}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
