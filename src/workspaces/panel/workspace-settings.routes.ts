import type { FastifyInstance } from 'fastify';
import { AppError, notFound } from '../../errors.js';
import type { AppDeps } from '../../platform/http/types.js';
import { throwIfInvalid } from '../../platform/http/validation.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import { str } from '../../surfaces/panel/forms.js';
import { sessionOf } from '../../surfaces/panel/panel-auth.js';
import { settingsRuleErrors } from '../workspace-settings.rules.js';
import { findWorkspaceById, type WorkspaceRow } from '../workspaces.repository.js';
import { WorkspaceSettingsBody } from '../workspaces.schemas.js';
import { updateWorkspaceSettings } from '../workspaces.service.js';
import { WORKSPACE_SETTINGS, WorkspaceSettingsPage } from './workspace-settings.page.js';

const access = { config: { panelAccess: 'settings' as const } };

const formOf = (workspace: WorkspaceRow) => ({
  country_iso: workspace.country_iso,
  'contacts.phone': workspace.contact_phone,
  'contacts.email': workspace.contact_email,
});

/**
 * Settings → Workspace (owners and admins): the fields of PATCH /workspace the panel sets,
 * checked by the same schema and rules and written by the same service.
 */
export function workspaceSettingsRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/settings/workspace', access, async (request, reply) => {
    const workspace = await findWorkspaceById(deps.db, sessionOf(request).workspace.id);
    if (!workspace) throw notFound('Workspace');
    return reply.page({
      title: 'Workspace settings',
      body: WorkspaceSettingsPage({
        form: { values: formOf(workspace), errors: {} },
        csrf: reply.csrf(),
        saved: (request.query as Record<string, unknown>).notice === 'saved',
      }),
    });
  });

  panel.post('/settings/workspace', access, async (request, reply) => {
    const session = sessionOf(request);
    const values = {
      country_iso: str(request.body, 'country_iso').trim(),
      'contacts.phone': str(request.body, 'contacts.phone'),
      'contacts.email': str(request.body, 'contacts.email'),
    };
    const body = {
      country_iso: values.country_iso,
      contacts: { phone: values['contacts.phone'], email: values['contacts.email'] },
    };
    try {
      throwIfInvalid(schemaErrorsOf(WorkspaceSettingsBody, body), settingsRuleErrors(body));
      await updateWorkspaceSettings(deps.uow, session.workspace.id, body);
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return reply.page({
        title: 'Workspace settings',
        status: 422,
        body: WorkspaceSettingsPage({ form: { values, errors: error.errors }, csrf: reply.csrf() }),
      });
    }
    return reply.redirect(`${WORKSPACE_SETTINGS}?notice=saved`, 303);
  });
}
