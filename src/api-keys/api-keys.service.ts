import { createHash, randomBytes } from 'node:crypto';
import { type AuditActor, recordAudit } from '../audit/audit.service.js';
import { invalidField, limitReached, notFound, REQUIRED } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import {
  type ApiKeyUsageRow,
  countLiveApiKeysLocked,
  findLiveApiKey,
  insertApiKey,
  listApiKeysWithUsage,
  listLiveApiKeys,
  softDeleteApiKey,
} from './api-keys.repository.js';

/** `secret_` + 32 random bytes, base64url: shown once, stored only as a hash. */
export function generateSecret(): string {
  return `secret_${randomBytes(32).toString('base64url')}`;
}

/**
 * Secrets carry 256 random bits, so a single fast hash is safe here (no password stretching needed)
 * and keeps the per-request key check cheap.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export const SECRET_PATTERN = /^secret_[A-Za-z0-9_-]{43}$/;

export interface CreatedApiKey {
  uuid: string;
  name: string;
  secret: string;
}

export interface ApiKeyListItem {
  uuid: string;
  name: string;
  secret_hint: string;
  created_at: string;
}

export const API_KEY_NAME_MAX = 100;

/**
 * Creates a key; the secret is returned here once and stored only as a hash. `createdBy` is the
 * panel user who made it (none from the CLI or the first run). With `limit`, a workspace that
 * already has that many live keys gets a 422 `limit_reached` (MAX_API_KEYS_PER_WORKSPACE); the
 * workspace row is locked for the count (hence a Tx: inside a unit of work), so concurrent creates
 * cannot pass it together.
 */
export async function createApiKey(
  tx: Tx,
  workspaceId: string,
  rawName: string,
  options: { limit?: number | undefined; createdBy?: string | null | undefined } = {},
  /** Who makes it, for the audit log; none for a new workspace's first key. */
  actor?: AuditActor,
): Promise<CreatedApiKey> {
  const name = rawName.trim();
  const createdBy = options.createdBy ?? null;
  if (name === '') throw invalidField('name', 'The name field is required.', REQUIRED);
  if (name.length > API_KEY_NAME_MAX) {
    throw invalidField('name', `The name must be at most ${API_KEY_NAME_MAX} characters.`);
  }
  const limit = options.limit;
  if (limit !== undefined) {
    const count = await countLiveApiKeysLocked(tx, workspaceId);
    if (count >= limit) {
      throw limitReached(
        'api_keys',
        `This workspace already has ${limit} API keys, the most it may have; delete one first.`,
        limit,
      );
    }
  }
  const secret = generateSecret();
  const row = await insertApiKey(tx, {
    workspaceId,
    name,
    secretHash: hashSecret(secret),
    secretHint: `secret_…${secret.slice(-4)}`,
    createdBy,
  });
  // The first key of a new workspace is made with it, by no one: only later keys are logged.
  if (actor) await recordAudit(tx, workspaceId, actor, 'api_key.created', row.id, { name: row.name });
  return { uuid: row.id, name: row.name, secret };
}

export async function listApiKeys(db: Db, workspaceId: string): Promise<ApiKeyListItem[]> {
  const rows = await listLiveApiKeys(db, workspaceId);
  return rows.map((row) => ({
    uuid: row.id,
    name: row.name,
    secret_hint: row.secret_hint,
    created_at: row.created_at.toISOString(),
  }));
}

/** Deleting is immediate: the auth check reads the key on every request, nothing caches it. */
export async function deleteApiKey(
  tx: Tx,
  workspaceId: string,
  keyId: string,
  actor: AuditActor,
): Promise<void> {
  const key = await findLiveApiKey(tx, workspaceId, keyId);
  if (!key || !(await softDeleteApiKey(tx, workspaceId, keyId))) throw notFound('API key');
  await recordAudit(tx, workspaceId, actor, 'api_key.deleted', keyId, { name: key.name });
}

/** The workspace's keys with who made them and when each was last used (the panel's list). */
export function listKeysWithUsage(db: Db, workspaceId: string): Promise<ApiKeyUsageRow[]> {
  return listApiKeysWithUsage(db, workspaceId);
}

/** A key that is not deleted, without its hash; undefined otherwise. */
export function findApiKey(db: Db, workspaceId: string, keyId: string) {
  return findLiveApiKey(db, workspaceId, keyId);
}
