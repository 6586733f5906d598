import { ErrorSummary, type FormState, PostForm, SecretValue, TextField } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { ApiKeyUsageRow } from '../api-keys.repository.js';

export const KEYS = `${PANEL_PREFIX}/settings/developers/api-keys`;

const when = (date: Date | null) =>
  date === null ? 'Never' : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export interface ApiKeysPageProps {
  csrf: string;
  workspaceSlug: string;
  keys: ApiKeyUsageRow[];
  form: FormState;
  /** Right after creation: the secret, shown this once. */
  created?: { name: string; secret: string };
  notice?: string;
}

export function ApiKeysPage(props: ApiKeysPageProps) {
  return (
    <>
      <p class="crumbs">Settings / Developers /</p>
      <h1>API keys</h1>
      <p class="lead">
        One key per integration. Send it as <code>Authorization: Bearer secret_…</code> with{' '}
        <code>Workspace: {props.workspaceSlug}</code>.
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.created && (
        <div class="card" role="status">
          <h2>Secret of “{props.created.name}”</h2>
          <p>
            Copy it now and keep it in your integration's settings: it is shown{' '}
            <strong>only this once</strong>.
          </p>
          <SecretValue value={props.created.secret} label={`Secret of ${props.created.name}`} />
        </div>
      )}
      <div class="table-wrap">
        <table class="stack" aria-label="API keys">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Secret</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Created by</th>
              <th scope="col">
                <span class="muted">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.keys.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  No keys yet.
                </td>
              </tr>
            )}
            {props.keys.map((key) => (
              <tr>
                <td data-label="Name">{key.name}</td>
                <td data-label="Secret">
                  <code>{key.secret_hint}</code>
                </td>
                <td data-label="Created">{when(key.created_at)}</td>
                <td data-label="Last used">{when(key.last_used_at)}</td>
                <td data-label="Created by">
                  {key.created_by_email ?? <span class="muted">CLI or setup</span>}
                </td>
                <td class="actions">
                  <a href={`${KEYS}/${key.id}/delete`}>
                    Delete<span class="skip-label"> key {key.name}</span>
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Create a key</h2>
      <div class="card">
        <ErrorSummary form={props.form} />
        <PostForm action={KEYS} csrf={props.csrf} label="Create an API key">
          <TextField
            form={props.form}
            name="name"
            label="Name"
            hint="Name it after its integration, e.g. “Website booking form” or “Zapier”."
            autocomplete="off"
          />
          <button type="submit">Create key</button>
        </PostForm>
      </div>
    </>
  );
}

export function DeleteApiKeyPage(props: {
  csrf: string;
  key: { id: string; name: string; secret_hint: string };
}) {
  return (
    <>
      <p class="crumbs">
        Settings / Developers / <a href={KEYS}>API keys</a> /
      </p>
      <h1>Delete the key “{props.key.name}”?</h1>
      <div class="card">
        <p>
          The key <code>{props.key.secret_hint}</code> stops working at once: the very next request with it is
          refused (403 “Bearer token is invalid”). This cannot be undone.
        </p>
        <div class="row">
          <PostForm action={`${KEYS}/${props.key.id}/delete`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              Delete key
            </button>
          </PostForm>
          <a class="button secondary" href={KEYS}>
            Cancel
          </a>
        </div>
      </div>
    </>
  );
}
