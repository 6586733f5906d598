import type { ApiApp, AppDeps } from '../http/types.js';
import { schemaFieldErrors, throwIfInvalid } from '../http/validation.js';
import { RELEASE_VERSION } from '../version.js';
import { settingsRuleErrors, updateWorkspaceSettings, WorkspaceSettingsBody } from './settings.js';
import { presentWorkspace } from './workspaces.presenter.js';

export async function workspacesRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/ping',
    { schema: { tags: ['reference'], summary: 'Check the key and read the release' } },
    async () => ({
      ping: 'pong',
      version: RELEASE_VERSION,
    }),
  );

  app.get(
    '/workspace',
    { schema: { tags: ['reference'], summary: 'The workspace of the key' } },
    async (request) => ({
      data: presentWorkspace(request.auth.workspace),
    }),
  );

  app.patch(
    '/workspace',
    {
      attachValidation: true,
      schema: {
        tags: ['management'],
        summary: 'Change workspace settings (the slug never changes)',
        body: WorkspaceSettingsBody,
      },
    },
    async (request) => {
      const body = request.body ?? {};
      throwIfInvalid(schemaFieldErrors(request), settingsRuleErrors(body as Record<string, unknown>));
      // request.auth.workspace is the row read before this change: answer the one now stored.
      const workspace = await updateWorkspaceSettings(deps.db, request.auth.workspace.id, body);
      return { data: presentWorkspace(workspace) };
    },
  );
}
