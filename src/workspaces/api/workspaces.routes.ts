import { answerWrite } from '../../platform/http/idempotency.js';
import { Data, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { schemaFieldErrors, throwIfInvalid } from '../../platform/http/validation.js';
import { RELEASE_VERSION } from '../../version.js';
import { settingsRuleErrors } from '../workspace-settings.rules.js';
import { presentWorkspace } from '../workspaces.presenter.js';
import { PingJson, WorkspaceJson, WorkspaceSettingsBody } from '../workspaces.schemas.js';
import { updateWorkspaceSettings } from '../workspaces.service.js';

export async function workspacesRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/ping',
    {
      schema: {
        tags: ['reference'],
        summary: 'Check the key and read the release',
        response: responses({ 200: PingJson }),
      },
    },
    async () => ({
      ping: 'pong',
      version: RELEASE_VERSION,
    }),
  );

  app.get(
    '/workspace',
    {
      schema: {
        tags: ['reference'],
        summary: 'The workspace of the key',
        response: responses({ 200: Data(WorkspaceJson) }),
      },
    },
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
        response: responses({ 200: Data(WorkspaceJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const body = request.body ?? {};
        throwIfInvalid(schemaFieldErrors(request), settingsRuleErrors(body as Record<string, unknown>));
        // request.auth.workspace is the row read before this change: answer the one now stored.
        const workspace = await updateWorkspaceSettings(uow, request.auth.workspace.id, body);
        return { data: presentWorkspace(workspace) };
      }),
  );
}
