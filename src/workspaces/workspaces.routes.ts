import type { ApiApp, AppDeps } from '../http/types.js';
import { RELEASE_VERSION } from '../version.js';
import { presentWorkspace } from './workspaces.presenter.js';

export async function workspacesRoutes(app: ApiApp, _deps: AppDeps): Promise<void> {
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
}
