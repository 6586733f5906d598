import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, notFound } from '../../errors.js';
import { emptyForm, type FormState, str } from '../../panel-kit/forms.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { uuidParam } from '../../panel-kit/params.js';
import type { AppDeps } from '../../platform/http/types.js';
import { createApiKey, deleteApiKey, findApiKey, listKeysWithUsage } from '../api-keys.service.js';
import { ApiKeysPage, DeleteApiKeyPage, KEYS } from './api-keys.page.js';

const access = { config: { panelAccess: 'developers' as const } };

/** Settings -> Developers -> API keys: list, create (secret shown once), delete with a confirm step. */
export function apiKeysPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { form?: FormState; created?: { name: string; secret: string } } = {},
    status = 200,
  ) {
    const session = sessionOf(request);
    const keys = await listKeysWithUsage(deps.db, session.workspace.id);
    const notice =
      (request.query as Record<string, string | undefined>).notice === 'deleted'
        ? 'The key is deleted.'
        : undefined;
    return reply.page({
      title: 'API keys',
      status,
      islands: ['copy-text'],
      body: ApiKeysPage({
        csrf: reply.csrf(),
        workspaceSlug: session.workspace.slug,
        keys,
        form: extra.form ?? emptyForm(),
        ...(extra.created ? { created: extra.created } : {}),
        ...(notice ? { notice } : {}),
      }),
    });
  }

  panel.get('/settings/developers/api-keys', access, (request, reply) => render(request, reply));

  // The answer shows the secret (no redirect): it exists only in this response.
  panel.post('/settings/developers/api-keys', access, async (request, reply) => {
    const session = sessionOf(request);
    const name = str(request.body, 'name');
    try {
      const key = await deps.uow.run(session.workspace.id, (tx) =>
        createApiKey(tx, session.workspace.id, name, {
          createdBy: session.user.id,
          limit: deps.config.maxApiKeysPerWorkspace,
        }),
      );
      return render(request, reply, { created: { name: key.name, secret: key.secret } });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return render(request, reply, { form: { values: { name }, errors: error.errors } }, 422);
    }
  });

  panel.get('/settings/developers/api-keys/:keyId/delete', access, async (request, reply) => {
    const session = sessionOf(request);
    const key = await findApiKey(deps.db, session.workspace.id, uuidParam(request, 'keyId'));
    if (!key) throw notFound('API key');
    return reply.page({ title: `Delete ${key.name}`, body: DeleteApiKeyPage({ csrf: reply.csrf(), key }) });
  });

  panel.post('/settings/developers/api-keys/:keyId/delete', access, async (request, reply) => {
    const session = sessionOf(request);
    await deleteApiKey(deps.db, session.workspace.id, uuidParam(request, 'keyId'));
    return reply.redirect(`${KEYS}?notice=deleted`, 303);
  });
}
