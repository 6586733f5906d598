import type { Db } from './client.js';

/**
 * What a workspace lock serialises. Each is a row of `workspace_locks` on the workspace's own
 * shard, made on first use, held until the transaction ends.
 */
export type WorkspaceLockName = 'outbox_dispatch' | 'statuses' | 'api_keys' | 'webhooks' | 'waitlist';

/**
 * Waits for and takes the workspace's lock `name`. The upsert locks the row whether it inserts it
 * or finds it (its no-op update takes the row lock), in one statement.
 */
export async function lockWorkspace(tx: Db, workspaceId: string, name: WorkspaceLockName): Promise<void> {
  await tx
    .insertInto('workspace_locks')
    .values({ workspace_id: workspaceId, name })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'name']).doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })),
    )
    .execute();
}

/**
 * Takes the workspace's lock `name` if no one holds it: false when another transaction does.
 * The row is locked without waiting; only when it does not exist yet is it inserted (an inserted
 * row is this transaction's until it commits; a concurrent insert makes this one find a conflict).
 */
export async function tryLockWorkspace(
  tx: Db,
  workspaceId: string,
  name: WorkspaceLockName,
): Promise<boolean> {
  const held = await tx
    .selectFrom('workspace_locks')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('name', '=', name)
    .forNoKeyUpdate()
    .skipLocked()
    .executeTakeFirst();
  if (held) return true;
  const made = await tx
    .insertInto('workspace_locks')
    .values({ workspace_id: workspaceId, name })
    .onConflict((oc) => oc.doNothing())
    .returning('name')
    .executeTakeFirst();
  return made !== undefined;
}
