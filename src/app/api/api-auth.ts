import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import {
  findKeyWithWorkspace,
  findLiveApiKeyByHash,
  touchApiKey,
} from '../../api-keys/api-keys.repository.js';
import { hashSecret, SECRET_PATTERN } from '../../api-keys/api-keys.service.js';
import { AppError, badRequest, invalidToken } from '../../errors.js';
import type { Db } from '../../platform/db/client.js';
import { addressKey, FailureLimit } from '../../platform/http/rate-limit.js';
import { rateLimitRefusals } from '../../platform/metrics/registry.js';
import { findWorkspaceBySlug } from '../../workspaces/workspaces.repository.js';

/** The keys table shows when a key was last used, to the minute: one write per key per minute. */
export const LAST_USED_EVERY_MS = 60_000;

/** How long the failures of one address are counted together. */
export const AUTH_FAILURE_WINDOW_MS = 60_000;
/** Secrets that authenticated on this process, remembered by hash (see registerAuth). */
const KNOWN_GOOD_SECRETS = 10_000;
/** Workspace ids by slug, of workspaces whose requests authenticated on this process. */
const KNOWN_WORKSPACES = 10_000;

/**
 * Every API route needs `Authorization: Bearer secret_...` and `Workspace: <slug>`.
 * Any key problem — missing, malformed, unknown, deleted, or another
 * workspace's — is the same 403, so the answer never tells which keys or workspaces exist.
 */
export function registerAuth(
  app: FastifyInstance,
  db: Db,
  clock: { now(): number } = Date,
  options: { failuresPerMinute?: number } = {},
): void {
  app.decorateRequest('auth', null as unknown as FastifyRequest['auth']);
  const lastUsed = new WeakMap<FastifyRequest, Date | null>();
  // Failed authentications per client address (README "Input limits", docs/operations/running.md).
  // Past the budget an address gets 429 before any lookup, so a flood of guesses costs the store
  // nothing, and a client retrying with a wrong key is told to slow down rather than refused
  // forever. A secret this process has already seen succeed is still looked up: an integration
  // behind the same address (one office, one NAT) keeps working while a neighbour's is misconfigured.
  const failures = new FailureLimit({
    max: options.failuresPerMinute ?? 0,
    windowMs: AUTH_FAILURE_WINDOW_MS,
    clock,
  });
  const knownGood = new LRUCache<string, true>({ max: KNOWN_GOOD_SECRETS });
  const workspaceIds = new LRUCache<string, string>({ max: KNOWN_WORKSPACES });
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public) return;
    const address = addressKey(request.ip);
    const secret = bearerSecret(request.headers.authorization);
    const hash = secret === undefined ? undefined : hashSecret(secret);
    const retryAfter = failures.retryAfter(address);
    if (retryAfter > 0 && !(hash !== undefined && knownGood.has(hash))) {
      rateLimitRefusals.inc({ surface: 'api-auth' });
      throw new AppError(
        429,
        'rate_limited',
        `Too many requests with an invalid API key from this address. Retry in ${retryAfter} seconds.`,
        undefined,
        { 'retry-after': String(retryAfter) },
      );
    }
    const refuse = () => {
      failures.record(address);
      return invalidToken();
    };
    if (hash === undefined) throw refuse();
    const slug = request.headers.workspace;
    if (typeof slug !== 'string' || slug.trim() === '') {
      throw badRequest('The Workspace header is required.', 'workspace_header_missing');
    }
    // The key is looked up by workspace_id = $1, which on a database distributed by workspace
    // (Citus) is one node's work, not every node's. A slug never changes, so once a request of a
    // workspace has authenticated here its id is remembered, and the workspace and the key are
    // one statement; the first request, and any the remembered id does not answer, take two.
    // The key itself is never remembered: a deleted key fails on its next request, on every
    // process. All three statements are compiled once (precompiled.ts).
    const trimmed = slug.trim();
    const knownId = workspaceIds.get(trimmed);
    let found = knownId === undefined ? undefined : await findKeyWithWorkspace(db, knownId, trimmed, hash);
    if (!found) {
      const workspace = await findWorkspaceBySlug(db, trimmed);
      if (!workspace) throw refuse();
      const key = await findLiveApiKeyByHash(db, workspace.id, hash);
      if (!key) throw refuse();
      found = { workspace, key };
      workspaceIds.set(trimmed, workspace.id);
    }
    knownGood.set(hash, true);
    request.auth = { workspace: found.workspace, apiKeyId: found.key.id };
    lastUsed.set(request, found.key.last_used_at);
  });
  // After the answer is sent, so no request waits for it; skipped unless a minute has passed.
  app.addHook('onResponse', (request, _reply, done) => {
    if (!lastUsed.has(request)) return done();
    const previous = lastUsed.get(request) ?? null;
    const now = clock.now();
    if (previous && now - previous.getTime() < LAST_USED_EVERY_MS) return done();
    touchApiKey(db, request.auth.workspace.id, request.auth.apiKeyId, new Date(now), LAST_USED_EVERY_MS)
      .catch((error: unknown) => request.log.warn({ err: error }, 'could not record the API key as used'))
      .finally(() => done());
  });
}

function bearerSecret(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const secret = match?.[1];
  return secret && SECRET_PATTERN.test(secret) ? secret : undefined;
}
