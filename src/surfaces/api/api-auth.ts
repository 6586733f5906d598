import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findLiveApiKeyByHash, touchApiKey } from '../../api-keys/api-keys.repository.js';
import { hashSecret, SECRET_PATTERN } from '../../api-keys/api-keys.service.js';
import { badRequest, invalidToken } from '../../errors.js';
import type { Db } from '../../platform/db/client.js';
import { findWorkspaceBySlug } from '../../workspaces/workspaces.repository.js';

/**
 * Every API route needs `Authorization: Bearer secret_...` and `Workspace: <slug>`.
 * Any key problem — missing, malformed, unknown, deleted, or another
 * workspace's — is the same 403, so the answer never tells which keys or workspaces exist.
 */
/** The keys table shows when a key was last used, to the minute: one write per key per minute. */
export const LAST_USED_EVERY_MS = 60_000;

export function registerAuth(app: FastifyInstance, db: Db, clock: { now(): number } = Date): void {
  app.decorateRequest('auth', null as unknown as FastifyRequest['auth']);
  const lastUsed = new WeakMap<FastifyRequest, Date | null>();
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public) return;
    const secret = bearerSecret(request.headers.authorization);
    if (!secret) throw invalidToken();
    const slug = request.headers.workspace;
    if (typeof slug !== 'string' || slug.trim() === '') {
      throw badRequest('The Workspace header is required.', 'workspace_header_missing');
    }
    // Two statements, not one join: the key is then looked up by workspace_id = $1, which on a
    // database distributed by workspace (Citus) is one node's work, not every node's.
    // Both are compiled once (precompiled.ts): they run on every request.
    const workspace = await findWorkspaceBySlug(db, slug.trim());
    if (!workspace) throw invalidToken();
    const key = await findLiveApiKeyByHash(db, workspace.id, hashSecret(secret));
    if (!key) throw invalidToken();
    request.auth = { workspace, apiKeyId: key.id };
    lastUsed.set(request, key.last_used_at);
  });
  // After the answer is sent, so no request waits for it; skipped unless a minute has passed.
  app.addHook('onResponse', async (request) => {
    if (!lastUsed.has(request)) return;
    const previous = lastUsed.get(request) ?? null;
    const now = clock.now();
    if (previous && now - previous.getTime() < LAST_USED_EVERY_MS) return;
    await touchApiKey(
      db,
      request.auth.workspace.id,
      request.auth.apiKeyId,
      new Date(now),
      LAST_USED_EVERY_MS,
    ).catch((error: unknown) => request.log.warn({ err: error }, 'could not record the API key as used'));
  });
}

function bearerSecret(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const secret = match?.[1];
  return secret && SECRET_PATTERN.test(secret) ? secret : undefined;
}
