import type { Db } from '../platform/db/client.js';

/** The workspace's availability version; '0' before its first write. */
export async function readAvailabilityVersion(db: Db, workspaceId: string): Promise<string> {
  const row = await db
    .selectFrom('availability_versions')
    .select((eb) => eb.cast<string>('version', 'text').as('version'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row?.version ?? '0';
}

/**
 * One step up for each workspace, in its own short statement (never inside the write's
 * transaction: the row lock would make a workspace's writes queue on each other).
 */
export async function bumpAvailabilityVersions(db: Db, workspaceIds: readonly string[]): Promise<void> {
  await db
    .insertInto('availability_versions')
    // Sorted: two statements bumping the same rows lock them in one order, never a deadlock.
    .values([...workspaceIds].sort().map((workspace_id) => ({ workspace_id, version: 1 })))
    .onConflict((oc) =>
      oc
        .column('workspace_id')
        .doUpdateSet((eb) => ({ version: eb('availability_versions.version', '+', 1) })),
    )
    .execute();
}
