import type { FastifyInstance } from 'fastify';
import { AppError, type FieldErrors } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { formInteger, sent } from '../../panel-kit/form-values.js';
import { type FormState, str } from '../../panel-kit/forms.js';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { throwIfInvalid } from '../../platform/http/validation.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import { BOOKING_FORM_FIELDS, settingsRuleErrors } from '../workspace-settings.rules.js';
import type { WorkspaceRow } from '../workspaces.repository.js';
import { type WorkspaceSettings, WorkspaceSettingsBody } from '../workspaces.schemas.js';
import { updateWorkspaceSettings } from '../workspaces.service.js';
import { WORKSPACE_SETTINGS, WorkspaceSettingsPage } from './workspace-settings.page.js';

const access = { config: { panelAccess: 'settings' as const } };

const NUMBER_FIELDS = [
  'slot_step_minutes',
  'min_notice_minutes',
  'horizon_days',
  'manage_cutoff_minutes',
] as const;
const TEXT_FIELDS = [
  'name',
  'currency',
  'locale',
  'staffer_selection',
  'country_iso',
  'contacts.phone',
  'contacts.email',
  ...BOOKING_FORM_FIELDS.map((field) => `booking_form.${field}`),
  ...NUMBER_FIELDS,
];

const formOf = (workspace: WorkspaceRow): FormState['values'] => ({
  name: workspace.name,
  currency: workspace.currency,
  locale: workspace.locale,
  ...Object.fromEntries(
    BOOKING_FORM_FIELDS.map((field) => [`booking_form.${field}`, workspace.booking_form[field]]),
  ),
  staffer_selection: workspace.staffer_selection,
  ...Object.fromEntries(NUMBER_FIELDS.map((field) => [field, String(workspace[field])])),
  country_iso: workspace.country_iso,
  'contacts.phone': workspace.contact_phone,
  'contacts.email': workspace.contact_email,
});

/**
 * The PATCH /workspace body of the form: only the fields it sent (a form showing some of the
 * settings changes only those). A number left empty is an error rather than "unchanged".
 */
function bodyOf(form: unknown, values: FormState['values']) {
  const text = (key: string) => (values[key] as string | undefined) ?? '';
  const given = (key: string) => sent(form, key);
  const errors: FieldErrors = {};
  const body: Record<string, unknown> = {};
  if (given('name')) body.name = text('name');
  if (given('currency')) body.currency = text('currency').trim();
  if (given('locale')) body.locale = text('locale').trim();
  if (given('staffer_selection')) body.staffer_selection = text('staffer_selection');
  for (const field of NUMBER_FIELDS) {
    if (!given(field)) continue;
    const value = formInteger(text(field));
    if (value === undefined) errors[field] = [`The ${field} field is required.`];
    else body[field] = value;
  }
  const bookingForm = Object.fromEntries(
    BOOKING_FORM_FIELDS.filter((field) => given(`booking_form.${field}`)).map((field) => [
      field,
      text(`booking_form.${field}`),
    ]),
  );
  if (Object.keys(bookingForm).length > 0) body.booking_form = bookingForm;
  if (given('country_iso')) body.country_iso = text('country_iso').trim();
  const contacts: Record<string, string> = {};
  if (given('contacts.phone')) contacts.phone = text('contacts.phone');
  if (given('contacts.email')) contacts.email = text('contacts.email');
  if (Object.keys(contacts).length > 0) body.contacts = contacts;
  return { body, errors };
}

/**
 * Settings → Workspace (owners and admins): the fields of PATCH /workspace (all but the embedding
 * origins, set on the booking page's settings), checked by the same schema and rules and written by
 * the same service, which invalidates the cached slot answers.
 */
export function workspaceSettingsRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/settings/workspace', access, async (request, reply) => {
    const { workspace } = await panelContextOf(request);
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('ws.formLabel'),
      body: WorkspaceSettingsPage({
        form: { values: formOf(workspace), errors: {} },
        csrf: reply.csrf(),
        saved: (request.query as Record<string, unknown>).notice === 'saved',
        text,
      }),
    });
  });

  panel.post('/settings/workspace', access, async (request, reply) => {
    const session = sessionOf(request);
    const { workspace } = await panelContextOf(request);
    // What the form sent, as typed; what it did not send, as stored (a 422 shows them all again).
    const values: FormState['values'] = {
      ...formOf(workspace),
      ...Object.fromEntries(
        TEXT_FIELDS.filter((field) => sent(request.body, field)).map((field) => [
          field,
          str(request.body, field),
        ]),
      ),
    };
    const { body, errors } = bodyOf(request.body, values);
    try {
      throwIfInvalid(schemaErrorsOf(WorkspaceSettingsBody, body), {
        ...settingsRuleErrors(body),
        ...errors,
      });
      // The form's key: a double click saves once and answers both with the same redirect.
      const { actor } = await panelContextOf(request);
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await updateWorkspaceSettings(uow, session.workspace.id, body as WorkspaceSettings, actor);
        return `${WORKSPACE_SETTINGS}?notice=saved`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      const text = panelTextOf(request);
      return reply.page({
        title: text.t('ws.formLabel'),
        status: 422,
        body: WorkspaceSettingsPage({
          form: { values, errors: formErrorsOf(error, panelTextOf(request).t) },
          csrf: reply.csrf(),
          text,
        }),
      });
    }
  });
}
