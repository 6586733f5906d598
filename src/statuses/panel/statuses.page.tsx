import { ErrorSummary, FieldError, type FormState, PostForm, TextField } from '../../panel-kit/forms.js';
import type { PanelKey, PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import type { StatusType } from '../../platform/db/schema.js';
import type { StatusRow } from '../statuses.repository.js';

export const STATUSES = `${PANEL_PREFIX}/setup/statuses`;

const TYPE_LABELS: Record<StatusType, PanelKey> = {
  new: 'statuses.type.new',
  confirmed: 'statuses.type.confirmed',
  custom: 'statuses.type.custom',
  completed: 'statuses.type.completed',
  canceled: 'statuses.type.canceled',
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

export function StatusesPage(props: { statuses: StatusRow[]; notice?: string; text: PanelText }) {
  const { t } = props.text;
  const live = props.statuses.filter((status) => status.archived_at === null);
  const archived = props.statuses.filter((status) => status.archived_at !== null);
  return (
    <>
      <p class="crumbs">{t('nav.setup')} /</p>
      <h1>{t('nav.statuses')}</h1>
      <p class="lead">{t('statuses.lead')}</p>
      <Notice text={props.notice} />
      <p>
        <a class="button" href={`${STATUSES}/new`}>
          {t('statuses.add')}
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label={t('nav.statuses')}>
          <thead>
            <tr>
              <th scope="col">{t('statuses.name')}</th>
              <th scope="col">{t('statuses.colour')}</th>
              <th scope="col">{t('statuses.kind')}</th>
            </tr>
          </thead>
          <tbody>
            {live.map((status) => (
              <tr>
                <td data-label={t('statuses.name')}>
                  <a href={`${STATUSES}/${status.id}`}>{status.name}</a>{' '}
                  {status.is_default && <span class="badge enabled">{t('statuses.default')}</span>}
                </td>
                <td data-label={t('statuses.colour')}>
                  <Swatch color={status.color} />
                  <code>{status.color}</code>
                </td>
                <td data-label={t('statuses.kind')}>{t(TYPE_LABELS[status.type])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {archived.length > 0 && (
        <>
          <h2>{t('kit.archived')}</h2>
          <p class="muted">{t('statuses.archivedLead')}</p>
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
  text: PanelText;
}) {
  const { form, status } = props;
  const { t } = props.text;
  const action = status ? `${STATUSES}/${status.id}` : STATUSES;
  const canBeDefault =
    !status || (!status.is_default && status.type !== 'completed' && status.type !== 'canceled');
  const archivable = status && status.type === 'custom' && !status.is_default;
  const color = typeof form.values.color === 'string' ? form.values.color : '';
  return (
    <>
      <p class="crumbs">
        {t('nav.setup')} / <a href={STATUSES}>{t('nav.statuses')}</a> /
      </p>
      <h1>{status ? status.name : t('statuses.add')}</h1>
      {props.problem && (
        <div class="errors-summary" role="alert">
          <h2>{t('statuses.problem')}</h2>
          <p>{props.problem}</p>
        </div>
      )}
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={action} csrf={props.csrf} label={status ? t('statuses.edit') : t('statuses.add')}>
          {status && <p class="muted">{t(TYPE_LABELS[status.type])}</p>}
          <TextField form={form} name="name" label={t('statuses.name')} autocomplete="off" />
          <TextField
            form={form}
            name="color"
            label={status ? t('statuses.colour') : t('statuses.colourOptional')}
            hint={t('statuses.colourHint')}
            autocomplete="off"
          />
          {HEX.test(color) && (
            <p class="muted">
              <Swatch color={color} /> {t('statuses.now')}
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
                {t('statuses.isDefault')}
              </label>
              <FieldError form={form} name="is_default" />
            </div>
          ) : (
            status?.is_default && <p class="muted">{t('statuses.isTheDefault')}</p>
          )}
          <button type="submit">{status ? t('statuses.save') : t('statuses.addThe')}</button>
        </PostForm>
      </div>
      {archivable && (
        <div class="card">
          <h2>{t('statuses.archive')}</h2>
          <p>{t('statuses.archiveText')}</p>
          <PostForm action={`${STATUSES}/${status.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              {t('statuses.archiveButton', { name: status.name })}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
