import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { precompiled } from '../db/precompiled.js';
import { badRequest, invalidToken } from '../errors.js';
import { hashSecret, SECRET_PATTERN } from './api-keys.js';

/**
 * Every API route needs `Authorization: Bearer secret_...` and `Workspace: <slug>` (SPEC
 * "Authentication"). Any key problem — missing, malformed, unknown, deleted, or another
 * workspace's — is the same 403, so the answer never tells which keys or workspaces exist.
 */
export function registerAuth(app: FastifyInstance, db: Db): void {
  app.decorateRequest('auth', null as unknown as FastifyRequest['auth']);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public) return;
    const secret = bearerSecret(request.headers.authorization);
    if (!secret) throw invalidToken();
    const slug = request.headers.workspace;
    if (typeof slug !== 'string' || slug.trim() === '') {
      throw badRequest('The Workspace header is required.', 'workspace_header_missing');
    }
    const [row] = (await keyOwner(db, hashSecret(secret), slug.trim())).rows;
    if (!row) throw invalidToken();
    const { api_key_id, ...workspace } = row;
    request.auth = { workspace, apiKeyId: api_key_id };
  });
}

/** The workspace a live key (by its secret's hash) opens, if its slug is the one sent. */
const keyOwner = precompiled(2, (db, secretHash: string, slug: string) =>
  db
    .selectFrom('workspaces as w')
    .innerJoin('api_keys as k', (join) =>
      join
        .onRef('k.workspace_id', '=', 'w.id')
        .on('k.secret_hash', '=', secretHash)
        .on('k.deleted_at', 'is', null),
    )
    .selectAll('w')
    .select('k.id as api_key_id')
    .where('w.slug', '=', slug),
);

function bearerSecret(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const secret = match?.[1];
  return secret && SECRET_PATTERN.test(secret) ? secret : undefined;
}
