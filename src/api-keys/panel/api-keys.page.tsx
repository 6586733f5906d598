import { ErrorSummary, type FormState, PostForm, SecretValue, TextField } from '../../panel-kit/forms.js';
import { type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { ApiKeyUsageRow } from '../api-keys.repository.js';

export const KEYS = `${PANEL_PREFIX}/settings/developers/api-keys`;

const when = (date: Date | null, never: string) =>
  date === null ? never : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export interface ApiKeysPageProps {
  csrf: string;
  workspaceSlug: string;
  keys: ApiKeyUsageRow[];
  form: FormState;
  /** Right after creation: the secret, shown this once. */
  created?: { name: string; secret: string };
  notice?: string;
  text: PanelText;
}

export function ApiKeysPage(props: ApiKeysPageProps) {
  const { t } = props.text;
  return (
    <>
      <p class="crumbs">
        {t('nav.settings')} / {t('dev.crumb')} /
      </p>
      <h1>{t('nav.apiKeys')}</h1>
      <p class="lead">
        {withElements((values) => t('keys.lead', values), {
          auth: <code>Authorization: Bearer secret_…</code>,
          workspace: <code>Workspace: {props.workspaceSlug}</code>,
        })}
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.created && (
        <div class="card" role="status">
          <h2>{t('keys.secretOf', { name: props.created.name })}</h2>
          <p>
            {withElements((values) => t('keys.copyNow', values), {
              once: <strong>{t('keys.onlyOnce')}</strong>,
            })}
          </p>
          <SecretValue
            value={props.created.secret}
            label={t('keys.secretLabel', { name: props.created.name })}
          />
        </div>
      )}
      <div class="table-wrap">
        <table class="stack" aria-label={t('nav.apiKeys')}>
          <thead>
            <tr>
              <th scope="col">{t('keys.name')}</th>
              <th scope="col">{t('keys.secret')}</th>
              <th scope="col">{t('keys.created')}</th>
              <th scope="col">{t('keys.lastUsed')}</th>
              <th scope="col">{t('keys.createdBy')}</th>
              <th scope="col">
                <span class="muted">{t('keys.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.keys.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  {t('keys.none')}
                </td>
              </tr>
            )}
            {props.keys.map((key) => (
              <tr>
                <td data-label={t('keys.name')}>{key.name}</td>
                <td data-label={t('keys.secret')}>
                  <code>{key.secret_hint}</code>
                </td>
                <td data-label={t('keys.created')}>{when(key.created_at, t('dev.never'))}</td>
                <td data-label={t('keys.lastUsed')}>{when(key.last_used_at, t('dev.never'))}</td>
                <td data-label={t('keys.createdBy')}>
                  {key.created_by_email ?? <span class="muted">{t('keys.cliOrSetup')}</span>}
                </td>
                <td class="actions">
                  <a href={`${KEYS}/${key.id}/delete`}>
                    {t('keys.delete')}
                    <span class="skip-label">{t('keys.keyNamed', { name: key.name })}</span>
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>{t('keys.create')}</h2>
      <div class="card">
        <ErrorSummary form={props.form} />
        <PostForm action={KEYS} csrf={props.csrf} label={t('keys.createLabel')}>
          <TextField
            form={props.form}
            name="name"
            label={t('keys.name')}
            hint={t('keys.nameHint')}
            autocomplete="off"
          />
          <button type="submit">{t('keys.createButton')}</button>
        </PostForm>
      </div>
    </>
  );
}

export function DeleteApiKeyPage(props: {
  csrf: string;
  key: { id: string; name: string; secret_hint: string };
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <>
      <p class="crumbs">
        {t('nav.settings')} / {t('dev.crumb')} / <a href={KEYS}>{t('nav.apiKeys')}</a> /
      </p>
      <h1>{t('keys.deleteTitle', { name: props.key.name })}</h1>
      <div class="card">
        <p>
          {withElements((values) => t('keys.deleteText', values), {
            hint: <code>{props.key.secret_hint}</code>,
          })}
        </p>
        <div class="row">
          <PostForm action={`${KEYS}/${props.key.id}/delete`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              {t('keys.deleteButton')}
            </button>
          </PostForm>
          <a class="button secondary" href={KEYS}>
            {t('team.cancel')}
          </a>
        </div>
      </div>
    </>
  );
}
