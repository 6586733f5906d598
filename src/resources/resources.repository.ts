import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { ResourcesTable } from '../platform/db/schema.js';
import type { Page } from '../platform/http/pagination.js';

export type ResourceRow = Selectable<ResourcesTable>;
export type ResourceValues = Partial<Omit<Insertable<ResourcesTable>, 'workspace_id' | 'id'>>;

/** One page of a location's live resources (by type, then creation), and their total. */
export async function listResourcesAtLocation(db: Db, workspaceId: string, locationId: string, page: Page) {
  const live = () =>
    db
      .selectFrom('resources')
      .where('workspace_id', '=', workspaceId)
      .where('location_id', '=', locationId)
      .where('archived_at', 'is', null);
  const rows = await live()
    .selectAll()
    .orderBy('type')
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  const whole = page.offset === 0 && rows.length < page.perPage;
  const total = whole
    ? rows.length
    : Number((await live().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
  return { rows, total };
}

/** Every resource of the workspace, archived ones too (the panel's list), by location and type. */
export function listAllResources(db: Db, workspaceId: string): Promise<ResourceRow[]> {
  return db
    .selectFrom('resources')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('location_id')
    .orderBy('type')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findResource(db: Db, workspaceId: string, resourceId: string) {
  return db
    .selectFrom('resources')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', resourceId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

/** The live resources among `ids` (a service's named units, checked before they are saved). */
export async function liveResources(db: Db, workspaceId: string, ids: string[]): Promise<ResourceRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('resources')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .where('archived_at', 'is', null)
    .execute();
}

export async function insertResource(
  db: Db,
  workspaceId: string,
  values: ResourceValues & { location_id: string; type: string; name: string },
): Promise<string> {
  const row = await db
    .insertInto('resources')
    .values({ ...values, workspace_id: workspaceId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateResourceRow(
  db: Db,
  workspaceId: string,
  resourceId: string,
  values: ResourceValues,
): Promise<boolean> {
  const result = await db
    .updateTable('resources')
    .set({ ...values, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', resourceId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Archived, never deleted: the bookings that held the unit keep naming it. */
export async function archiveResourceRow(db: Db, workspaceId: string, resourceId: string): Promise<boolean> {
  const result = await db
    .updateTable('resources')
    .set({ archived_at: sql`now()`, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', resourceId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The live services that need this very unit by name (their requirements name its id). */
export async function servicesNamingResource(
  db: Db,
  workspaceId: string,
  resourceId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('services')
    .select('name')
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .where(sql<boolean>`resource_requirements @> ${JSON.stringify([{ resource_id: resourceId }])}::jsonb`)
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}
