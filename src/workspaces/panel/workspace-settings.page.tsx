import { ErrorSummary, type FormState, PostForm, TextField } from '../../surfaces/panel/forms.js';
import { PANEL_PREFIX } from '../../surfaces/panel/layout.js';

export const WORKSPACE_SETTINGS = `${PANEL_PREFIX}/settings/workspace`;

/** Settings → Workspace: what integrations read about the business (GET /workspace). */
export function WorkspaceSettingsPage(props: { form: FormState; csrf: string; saved?: boolean }) {
  return (
    <>
      <p class="crumbs">Settings /</p>
      <h1>Workspace</h1>
      <p class="lead">
        The business's country and contacts, as integrations read them from <code>GET /workspace</code> (
        <code>country_iso</code>, <code>contacts</code>). Leave a field empty to clear it.
      </p>
      {props.saved && (
        <p class="notice" role="status">
          The settings are saved.
        </p>
      )}
      <div class="card">
        <ErrorSummary form={props.form} />
        <PostForm action={WORKSPACE_SETTINGS} csrf={props.csrf} label="Workspace settings">
          <TextField
            form={props.form}
            name="country_iso"
            label="Country"
            hint="Two-letter ISO 3166-1 code, such as DE, AT or US."
            autocomplete="country"
          />
          <TextField
            form={props.form}
            name="contacts.phone"
            label="Phone"
            hint="International format, such as +49 30 1234567."
            autocomplete="tel"
          />
          <TextField
            form={props.form}
            name="contacts.email"
            label="Email"
            type="email"
            autocomplete="email"
          />
          <button type="submit">Save settings</button>
        </PostForm>
      </div>
    </>
  );
}
