import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userActor } from '../../audit/audit.service.js';
import { AppError, notFound } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, type FormState, str } from '../../panel-kit/forms.js';
import { type PanelKey, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce, showSecretOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { createApiKey, deleteApiKey, findApiKey, listKeysWithUsage } from '../api-keys.service.js';
import { ApiKeysPage, DeleteApiKeyPage, KEYS } from './api-keys.page.js';

const access = { config: { panelAccess: 'developers' as const } };

const NOTICES: Record<string, PanelKey> = {
  deleted: 'keys.deleted',
  'already-created': 'keys.alreadyCreated',
};

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
    const text = panelTextOf(request);
    const noticeKey = NOTICES[(request.query as Record<string, string | undefined>).notice ?? ''];
    const notice = noticeKey ? text.t(noticeKey) : undefined;
    return reply.page({
      title: text.t('nav.apiKeys'),
      status,
      islands: ['copy-text'],
      body: ApiKeysPage({
        csrf: reply.csrf(),
        workspaceSlug: session.workspace.slug,
        keys,
        form: extra.form ?? emptyForm(),
        ...(extra.created ? { created: extra.created } : {}),
        ...(notice ? { notice } : {}),
        text,
      }),
    });
  }

  panel.get('/settings/developers/api-keys', access, (request, reply) => render(request, reply));

  // The answer shows the secret (no redirect): it exists only in this response. The form's key
  // makes a double click create one key; the secret is never stored with the key, so a repeat
  // is sent to the list, without it.
  panel.post('/settings/developers/api-keys', access, async (request, reply) => {
    const session = sessionOf(request);
    const name = str(request.body, 'name');
    try {
      return await showSecretOnce(
        request,
        reply,
        deps.uow,
        session.workspace.id,
        (uow) =>
          uow.run(session.workspace.id, (tx) =>
            createApiKey(
              tx,
              session.workspace.id,
              name,
              { createdBy: session.user.id, limit: deps.config.maxApiKeysPerWorkspace },
              userActor(session.user.id),
            ),
          ),
        () => `${KEYS}?notice=already-created`,
        (key) => render(request, reply, { created: { name: key.name, secret: key.secret } }),
      );
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return render(
        request,
        reply,
        { form: { values: { name }, errors: formErrorsOf(error, panelTextOf(request).t) } },
        422,
      );
    }
  });

  panel.get('/settings/developers/api-keys/:keyId/delete', access, async (request, reply) => {
    const session = sessionOf(request);
    const key = await findApiKey(deps.db, session.workspace.id, uuidParam(request, 'keyId'));
    if (!key) throw notFound('API key');
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('keys.deletePageTitle', { name: key.name }),
      body: DeleteApiKeyPage({ csrf: reply.csrf(), key, text }),
    });
  });

  panel.post('/settings/developers/api-keys/:keyId/delete', access, async (request, reply) => {
    const session = sessionOf(request);
    // The form's key: a repeat gets the first redirect, not a 404 for the key it deleted.
    return redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
      const keyId = uuidParam(request, 'keyId');
      await uow.run(session.workspace.id, (tx) =>
        deleteApiKey(tx, session.workspace.id, keyId, userActor(session.user.id)),
      );
      return `${KEYS}?notice=deleted`;
    });
  });
}
