import { type Insertable, type Selectable, sql } from 'kysely';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { BookingStatusesTable, StatusType } from '../platform/db/schema.js';
import { lockWorkspace } from '../platform/db/workspace-locks.repository.js';

export type StatusRow = Selectable<BookingStatusesTable>;

/** The four every workspace starts with; the flows rely on them, so they stay. */
export const BUILT_IN_TYPES: readonly StatusType[] = ['new', 'confirmed', 'completed', 'canceled'];
/** Reached only through /status/complete and /status/cancel; PUT /status refuses them. */
export const FINAL_TYPES: readonly StatusType[] = ['completed', 'canceled'];

export const isFinal = (type: StatusType) => FINAL_TYPES.includes(type);

export async function listLiveStatuses(db: Db, workspaceId: string): Promise<StatusRow[]> {
  return db
    .selectFrom('booking_statuses')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** A live status of this workspace, or 404 — the same for another workspace's and an unknown uuid. */
export async function requireLiveStatus(db: Db, workspaceId: string, statusId: string): Promise<StatusRow> {
  const row = await db
    .selectFrom('booking_statuses')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', statusId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Status');
  return row;
}

/** A status of this workspace (archived ones too: a booking keeps its status), or undefined. */
export async function findStatus(
  db: Db,
  workspaceId: string,
  statusId: string,
  options: { live?: boolean } = {},
): Promise<StatusRow | undefined> {
  let query = db
    .selectFrom('booking_statuses')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', statusId);
  if (options.live) query = query.where('archived_at', 'is', null);
  return query.executeTakeFirst();
}

/** The id of the workspace's built-in final status of this type. */
export async function finalStatusId(
  db: Db,
  workspaceId: string,
  type: 'completed' | 'canceled',
): Promise<string> {
  const row = await db
    .selectFrom('booking_statuses')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Whether another live status of the workspace has this name, in any letter case. */
export async function liveStatusNamed(
  db: Db,
  workspaceId: string,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  let query = db
    .selectFrom('booking_statuses')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .where(sql`lower(name)`, '=', name.toLowerCase());
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * Serialises status management within one workspace (inside a transaction). Two requests making
 * different statuses the default would otherwise both clear the old default from their own
 * snapshot and then collide on the one-default unique index.
 */
export async function lockStatusesOf(tx: Db, workspaceId: string): Promise<void> {
  await lockWorkspace(tx, workspaceId, 'statuses');
}

export async function nextPosition(tx: Db, workspaceId: string): Promise<number> {
  const row = await tx
    .selectFrom('booking_statuses')
    .select(sql<number>`coalesce(max(position), -1)::int + 1`.as('next'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return row.next;
}

/** A new workspace's built-in statuses. */
export async function insertStatuses(tx: Db, rows: Insertable<BookingStatusesTable>[]): Promise<void> {
  await tx.insertInto('booking_statuses').values(rows).execute();
}

export async function insertCustomStatus(
  tx: Db,
  workspaceId: string,
  values: { name: string; color?: string; position: number },
): Promise<StatusRow> {
  return tx
    .insertInto('booking_statuses')
    .values({
      workspace_id: workspaceId,
      type: 'custom',
      name: values.name,
      position: values.position,
      ...(values.color ? { color: values.color } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Clears the current default (the unique index allows one) before another status takes it. */
export async function clearDefault(tx: Db, workspaceId: string): Promise<void> {
  await tx
    .updateTable('booking_statuses')
    .set({ is_default: false, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('is_default', '=', true)
    .execute();
}

export async function updateStatus(
  tx: Db,
  workspaceId: string,
  statusId: string,
  changes: { name?: string; color?: string; is_default?: boolean; archived?: boolean },
): Promise<StatusRow> {
  return tx
    .updateTable('booking_statuses')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.color !== undefined ? { color: changes.color } : {}),
      ...(changes.is_default !== undefined ? { is_default: changes.is_default } : {}),
      ...(changes.archived ? { archived_at: sql`now()` } : {}),
      updated_at: sql`now()`,
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', statusId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every status of the workspace for the panel's setup list: live ones in list order, then archived. */
export async function listAllStatuses(db: Db, workspaceId: string): Promise<StatusRow[]> {
  return db
    .selectFrom('booking_statuses')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy(sql`archived_at is not null`)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('name')
    .orderBy('id')
    .execute();
}
