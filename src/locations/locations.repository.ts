import { type Insertable, type Selectable, sql } from 'kysely';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import { JsonRows } from '../platform/db/json-rows.js';
import { precompiled } from '../platform/db/precompiled.js';
import type { LocationsTable } from '../platform/db/schema.js';
import type { Page } from '../platform/http/pagination.js';

export type LocationRow = Selectable<LocationsTable>;

const locationRows = new JsonRows<LocationRow>(['created_at', 'updated_at', 'archived_at'], 10_000);

/**
 * One page of live locations and the total, in one round trip. GET /locations reads it on every
 * call: each row comes as one JSON text, parsed only when it changed (platform/db/json-rows.ts).
 */
export async function listLocations(db: Db, workspaceId: string, page: Page) {
  const { rows } = await locationsPage(db, workspaceId, page.perPage, page.offset);
  const total = rows[0]?.total ?? (page.offset > 0 ? await countLocations(db, workspaceId) : 0);
  return { rows: rows.map((row) => locationRows.row(row.id, row.json)), total: Number(total) };
}

const locationsPage = precompiled(3, (db, workspaceId: string, limit: number, offset: number) =>
  db
    .selectFrom('locations as l')
    .select(['l.id', sql<string>`row_to_json(l)::text`.as('json')])
    .select(sql<number>`count(*) over ()`.as('total'))
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('int_id')
    .limit(limit)
    .offset(offset),
);

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
  const row = await findLiveLocation(db, workspaceId, locationId);
  if (!row) throw notFound('Location');
  return row;
}

export async function findLiveLocation(
  db: Db,
  workspaceId: string,
  locationId: string,
): Promise<LocationRow | undefined> {
  return (await liveLocation(db, workspaceId, locationId)).rows[0];
}

const liveLocation = precompiled(2, (db, workspaceId: string, locationId: string) =>
  db
    .selectFrom('locations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', locationId)
    .where('archived_at', 'is', null),
);

/** Column values of a location write; absent keys are left as they are on update. */
export type LocationValues = Partial<Omit<Insertable<LocationsTable>, 'workspace_id' | 'id'>>;

export async function insertLocation(
  db: Db,
  workspaceId: string,
  values: LocationValues & { name: string; timezone: string },
): Promise<LocationRow> {
  return db
    .insertInto('locations')
    .values({ lat: null, lng: null, ...values, workspace_id: workspaceId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Updates a live location; 404 when there is none (archived, unknown or another workspace's). */
export async function updateLocation(
  db: Db,
  workspaceId: string,
  locationId: string,
  values: LocationValues,
): Promise<LocationRow> {
  const row = await db
    .updateTable('locations')
    .set({ ...values, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', locationId)
    .where('archived_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Location');
  return row;
}

/** Archives a live location: the row stays for bookings and payments that refer to it. */
export async function archiveLocation(db: Db, workspaceId: string, locationId: string): Promise<void> {
  const result = await db
    .updateTable('locations')
    .set({ archived_at: sql`now()`, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', locationId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound('Location');
}

/** Which of `ids` are live locations of this workspace. */
export async function liveLocationIds(db: Db, workspaceId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('locations')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .where('archived_at', 'is', null)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** Every location of the workspace for the panel's setup list: live ones first, then archived. */
export async function listAllLocations(db: Db, workspaceId: string): Promise<LocationRow[]> {
  return db
    .selectFrom('locations')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy(sql`archived_at is not null`)
    .orderBy('created_at')
    .orderBy('int_id')
    .limit(1000)
    .execute();
}
