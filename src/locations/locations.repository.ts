import { type Selectable, sql } from 'kysely';
import type { Db } from '../db/client.js';
import type { LocationsTable } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { Page } from '../http/pagination.js';

export type LocationRow = Selectable<LocationsTable>;

/** One page of live locations and the total, in one round trip. */
export async function listLocations(db: Db, workspaceId: string, page: Page) {
  const rows = await db
    .selectFrom('locations')
    .selectAll()
    .select(sql<number>`count(*) over ()`.as('total'))
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  const total = rows[0]?.total ?? (page.offset > 0 ? await countLocations(db, workspaceId) : 0);
  return { rows: rows as LocationRow[], total: Number(total) };
}

async function countLocations(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('locations')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** A live location of this workspace, or 404 — the same for another workspace's and an unknown uuid. */
export async function requireLocation(db: Db, workspaceId: string, locationId: string): Promise<LocationRow> {
  const row = await db
    .selectFrom('locations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', locationId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Location');
  return row;
}
