import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import { precompiled } from '../platform/db/precompiled.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { lockWorkspace } from '../platform/db/workspace-locks.repository.js';
import { type WorkspaceRow, workspaceFromJson } from '../workspaces/workspaces.repository.js';

/** The keys table of Settings -> Developers -> API keys. */
export interface ApiKeyUsageRow {
  id: string;
  name: string;
  secret_hint: string;
  created_at: Date;
  last_used_at: Date | null;
  /** The panel user who made it (null: CLI, first run, or a user since deleted). */
  created_by_email: string | null;
}

export function listApiKeysWithUsage(db: Db, workspaceId: string): Promise<ApiKeyUsageRow[]> {
  return db
    .selectFrom('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.created_by')
    .select([
      'k.id',
      'k.name',
      'k.secret_hint',
      'k.created_at',
      'k.last_used_at',
      'u.email as created_by_email',
    ])
    .where('k.workspace_id', '=', workspaceId)
    .where('k.deleted_at', 'is', null)
    .orderBy('k.created_at')
    .orderBy('k.id')
    .execute();
}

export function findLiveApiKey(db: Db, workspaceId: string, keyId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'secret_hint', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * A live key of the workspace, by its secret's hash. Compiled once: the API's auth looks it up on
 * every request (src/app/api/api-auth.ts), by workspace_id, so on a database distributed by
 * workspace (Citus) it is one node's work.
 */
export async function findLiveApiKeyByHash(
  db: Db,
  workspaceId: string,
  secretHash: string,
): Promise<{ id: string; last_used_at: Date | null } | undefined> {
  return (await liveKeyByHash(db, workspaceId, secretHash)).rows[0];
}

const liveKeyByHash = precompiled(2, (db, workspaceId: string, secretHash: string) =>
  db
    .selectFrom('api_keys')
    .select(['id', 'last_used_at'])
    .where('workspace_id', '=', workspaceId)
    .where('secret_hash', '=', secretHash)
    .where('deleted_at', 'is', null),
);

/**
 * The workspace and a live key of it, in one statement, for a request whose workspace id this
 * process already knows from its slug (src/app/api/api-auth.ts). `workspaces` is a reference
 * table on Citus and the key is found by workspace_id = $1: still one node's work there. The
 * slug is checked too, so a remembered id can only ever answer for the slug it was found by.
 */
export async function findKeyWithWorkspace(
  db: Db,
  workspaceId: string,
  slug: string,
  secretHash: string,
): Promise<{ workspace: WorkspaceRow; key: { id: string; last_used_at: Date | null } } | undefined> {
  const row = (await keyWithWorkspace(db, workspaceId, slug, secretHash)).rows[0];
  if (!row) return undefined;
  return {
    workspace: workspaceFromJson(workspaceId, row.workspace_json),
    key: { id: row.key_id, last_used_at: row.key_last_used_at },
  };
}

// The workspace comes as one JSON text (workspaceFromJson says why).
const keyWithWorkspace = precompiled(3, (db, workspaceId: string, slug: string, secretHash: string) =>
  db
    .selectFrom('workspaces as w')
    .innerJoin('api_keys as k', 'k.workspace_id', 'w.id')
    .select(sql<string>`row_to_json(w)::text`.as('workspace_json'))
    .select(['k.id as key_id', 'k.last_used_at as key_last_used_at'])
    .where('w.id', '=', workspaceId)
    .where('w.slug', '=', slug)
    .where('k.workspace_id', '=', workspaceId)
    .where('k.secret_hash', '=', secretHash)
    .where('k.deleted_at', 'is', null),
);

/**
 * Records that a key was used, at most once per `everyMs` per key: the condition in the WHERE
 * makes concurrent requests (on any process) write it once, and most requests skip the call.
 */
export async function touchApiKey(
  db: Db,
  workspaceId: string,
  keyId: string,
  now: Date,
  everyMs: number,
): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<', sql<Date>`${now}::timestamptz - make_interval(secs => ${everyMs / 1000})`),
      ]),
    )
    .execute();
}

/** The workspace's live keys, counted under a lock on its row (held until `tx` ends). */
export async function countLiveApiKeysLocked(tx: Tx, workspaceId: string): Promise<number> {
  await lockWorkspace(tx, workspaceId, 'api_keys');
  const { count } = await tx
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export function insertApiKey(
  tx: Tx,
  values: {
    workspaceId: string;
    name: string;
    secretHash: string;
    secretHint: string;
    createdBy: string | null;
  },
): Promise<{ id: string; name: string }> {
  return tx
    .insertInto('api_keys')
    .values({
      workspace_id: values.workspaceId,
      name: values.name,
      secret_hash: values.secretHash,
      secret_hint: values.secretHint,
      created_by: values.createdBy,
    })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

/** The live keys, oldest first (the CLI's list). */
export function listLiveApiKeys(db: Db, workspaceId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'name', 'secret_hint', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Marks a live key deleted; false when there was none. */
export async function softDeleteApiKey(db: Db, workspaceId: string, keyId: string): Promise<boolean> {
  const result = await db
    .updateTable('api_keys')
    .set({ deleted_at: new Date() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
