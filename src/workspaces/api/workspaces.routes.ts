import { Type } from 'typebox';
import { answerWrite } from '../../platform/http/idempotency.js';
import { responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { schemaFieldErrors, throwIfInvalid } from '../../platform/http/validation.js';
import { RELEASE_VERSION } from '../../version.js';
import { settingsRuleErrors } from '../workspace-settings.rules.js';
import { presentWorkspace } from '../workspaces.presenter.js';
import { PingJson, WorkspaceJson, WorkspaceSettingsBody } from '../workspaces.schemas.js';
import { updateWorkspaceSettings } from '../workspaces.service.js';

/**
 * The workspace answer: the envelope, and beside it the two fields clients of the real service
 * read outside it (`country_iso`, `contacts`), so both readings work (docs/decisions/0002).
 */
const WorkspaceAnswer = Type.Object({
  data: WorkspaceJson,
  country_iso: WorkspaceJson.properties.country_iso,
  contacts: WorkspaceJson.properties.contacts,
});

function withReadOutside(data: ReturnType<typeof presentWorkspace>) {
  return { data, country_iso: data.country_iso, contacts: data.contacts };
}

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
        response: responses({ 200: WorkspaceAnswer }),
      },
    },
    async (request) => withReadOutside(presentWorkspace(request.auth.workspace)),
  );

  app.patch(
    '/workspace',
    {
      attachValidation: true,
      schema: {
        tags: ['management'],
        summary: 'Change workspace settings (the slug never changes)',
        body: WorkspaceSettingsBody,
        response: responses({ 200: WorkspaceAnswer }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const body = request.body ?? {};
        throwIfInvalid(schemaFieldErrors(request), settingsRuleErrors(body as Record<string, unknown>));
        // request.auth.workspace is the row read before this change: answer the one now stored.
        const workspace = await updateWorkspaceSettings(
          uow,
          request.auth.workspace.id,
          body,
          request.context.actor,
        );
        return withReadOutside(presentWorkspace(workspace));
      }),
  );
}
