import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.js';
import { notFound } from '../errors.js';

/** `secret_` + 32 random bytes, base64url (DESIGN §4.6). */
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

/** Creates a key; the secret is returned here once and stored only as a hash. */
export async function createApiKey(db: Db, workspaceId: string, name: string): Promise<CreatedApiKey> {
  const secret = generateSecret();
  const row = await db
    .insertInto('api_keys')
    .values({
      workspace_id: workspaceId,
      name,
      secret_hash: hashSecret(secret),
      secret_hint: `secret_…${secret.slice(-4)}`,
    })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  return { uuid: row.id, name: row.name, secret };
}

export async function listApiKeys(db: Db, workspaceId: string): Promise<ApiKeyListItem[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(['id', 'name', 'secret_hint', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    uuid: row.id,
    name: row.name,
    secret_hint: row.secret_hint,
    created_at: row.created_at.toISOString(),
  }));
}

/** Deleting is immediate: the auth check reads the key on every request, nothing caches it. */
export async function deleteApiKey(db: Db, workspaceId: string, keyId: string): Promise<void> {
  const result = await db
    .updateTable('api_keys')
    .set({ deleted_at: new Date() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound('API key');
}
