import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { ServicesTable } from '../platform/db/schema.js';
import type { Page } from '../platform/http/pagination.js';

export type ServiceRow = Selectable<ServicesTable>;

/** A service with its category and the live locations that offer it: what the presenter needs. */
export interface ServiceRecord extends ServiceRow {
  category_name: string | null;
  category_position: number | null;
  location_ids: string[];
}

export type ServiceValues = Partial<Omit<Insertable<ServicesTable>, 'workspace_id' | 'id'>>;

function servicesWithCategory(db: Db, workspaceId: string) {
  return db
    .selectFrom('services as s')
    .leftJoin('service_categories as c', (join) =>
      join.onRef('c.workspace_id', '=', 's.workspace_id').onRef('c.id', '=', 's.category_id'),
    )
    .selectAll('s')
    .select(['c.name as category_name', 'c.position as category_position'])
    .where('s.workspace_id', '=', workspaceId)
    .where('s.archived_at', 'is', null);
}

/**
 * One page of the live services offered at a location, and their total: walked in list order on
 * services_list (migration 0006), each probed by primary key in service_locations.
 */
export async function listServicesAtLocation(db: Db, workspaceId: string, locationId: string, page: Page) {
  const offeredThere = () =>
    servicesWithCategory(db, workspaceId).where(({ exists, selectFrom }) =>
      exists(
        selectFrom('service_locations as sl')
          .select(sql`1`.as('one'))
          .whereRef('sl.workspace_id', '=', 's.workspace_id')
          .whereRef('sl.service_id', '=', 's.id')
          .where('sl.location_id', '=', locationId),
      ),
    );
  const rows = await offeredThere()
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy('s.created_at')
    .orderBy('s.int_id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && page.offset > 0) {
    // Past the last page the window count has no row to ride on.
    const row = await db
      .selectFrom('services as s')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('s.workspace_id', '=', workspaceId)
      .where('s.archived_at', 'is', null)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('service_locations as sl')
            .select(sql`1`.as('one'))
            .whereRef('sl.workspace_id', '=', 's.workspace_id')
            .whereRef('sl.service_id', '=', 's.id')
            .where('sl.location_id', '=', locationId),
        ),
      )
      .executeTakeFirstOrThrow();
    total = Number(row.n);
  }
  const locations = await serviceLocationIds(
    db,
    workspaceId,
    rows.map((row) => row.id),
  );
  return {
    rows: rows.map(({ total: _total, ...row }) => ({ ...row, location_ids: locations.get(row.id) ?? [] })),
    total,
  };
}

/** A live service of this workspace with its category and locations, or undefined. */
export async function findService(
  db: Db,
  workspaceId: string,
  serviceId: string,
): Promise<ServiceRecord | undefined> {
  const row = await servicesWithCategory(db, workspaceId).where('s.id', '=', serviceId).executeTakeFirst();
  if (!row) return undefined;
  const locations = await serviceLocationIds(db, workspaceId, [row.id]);
  return { ...row, location_ids: locations.get(row.id) ?? [] };
}

/** service id -> ids of the live locations offering it, oldest location first. */
export async function serviceLocationIds(
  db: Db,
  workspaceId: string,
  serviceIds: string[],
): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (serviceIds.length === 0) return result;
  const rows = await db
    .selectFrom('service_locations as sl')
    .innerJoin('locations as l', (join) =>
      join.onRef('l.workspace_id', '=', 'sl.workspace_id').onRef('l.id', '=', 'sl.location_id'),
    )
    .select(['sl.service_id', 'sl.location_id'])
    .where('sl.workspace_id', '=', workspaceId)
    .where('sl.service_id', 'in', serviceIds)
    .where('l.archived_at', 'is', null)
    .orderBy('l.created_at')
    .orderBy('l.int_id')
    .execute();
  for (const row of rows) {
    const list = result.get(row.service_id) ?? [];
    list.push(row.location_id);
    result.set(row.service_id, list);
  }
  return result;
}

export async function insertService(
  db: Db,
  workspaceId: string,
  values: ServiceValues & { name: string; duration_minutes: number },
): Promise<string> {
  const row = await db
    .insertInto('services')
    .values({ category_id: null, ...values, workspace_id: workspaceId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates a live service; false when there is none. */
export async function updateServiceRow(
  db: Db,
  workspaceId: string,
  serviceId: string,
  values: ServiceValues,
): Promise<boolean> {
  const result = await db
    .updateTable('services')
    .set({ ...values, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', serviceId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Archives a live service (its rows stay for bookings); false when there is none. */
export async function archiveServiceRow(db: Db, workspaceId: string, serviceId: string): Promise<boolean> {
  const result = await db
    .updateTable('services')
    .set({ archived_at: sql`now()`, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', serviceId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The id of the category named `name`, created at the end of the list when new. The no-op
 * update makes RETURNING yield the row in both cases, and is safe under concurrent upserts.
 */
export async function upsertCategory(db: Db, workspaceId: string, name: string): Promise<string> {
  // Read apart from the insert: Citus plans no subquery inside an INSERT. Two categories created
  // at once may share a position, which only leaves their order to the name.
  const last = await db
    .selectFrom('service_categories')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  const row = await db
    .insertInto('service_categories')
    .values({ workspace_id: workspaceId, name, position: (last?.position ?? 0) + 1 })
    .onConflict((conflict) => conflict.columns(['workspace_id', 'name']).doUpdateSet({ name }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Makes the service offered at exactly `locationIds`. Staffer assignments at a location the
 * service leaves go too, so "a staffer provides it there" always implies "it is offered there".
 */
export async function replaceServiceLocations(
  db: Db,
  workspaceId: string,
  serviceId: string,
  locationIds: string[],
): Promise<void> {
  let removedLocations = db
    .deleteFrom('service_locations')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId);
  let removedAssignments = db
    .deleteFrom('staffer_services')
    .where('workspace_id', '=', workspaceId)
    .where('service_id', '=', serviceId);
  if (locationIds.length > 0) {
    removedLocations = removedLocations.where('location_id', 'not in', locationIds);
    removedAssignments = removedAssignments.where('location_id', 'not in', locationIds);
  }
  await removedAssignments.execute();
  await removedLocations.execute();
  if (locationIds.length === 0) return;
  await db
    .insertInto('service_locations')
    .values(
      locationIds.map((location_id) => ({ workspace_id: workspaceId, service_id: serviceId, location_id })),
    )
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

/**
 * Every service of the workspace for the panel's setup list (live ones first, then archived),
 * with its category and the live locations offering it.
 */
export async function listAllServices(db: Db, workspaceId: string): Promise<ServiceRecord[]> {
  const rows = await db
    .selectFrom('services as s')
    .leftJoin('service_categories as c', (join) =>
      join.onRef('c.workspace_id', '=', 's.workspace_id').onRef('c.id', '=', 's.category_id'),
    )
    .selectAll('s')
    .select(['c.name as category_name', 'c.position as category_position'])
    .where('s.workspace_id', '=', workspaceId)
    .orderBy(sql`s.archived_at is not null`)
    .orderBy('c.position')
    .orderBy('s.created_at')
    .orderBy('s.int_id')
    .limit(1000)
    .execute();
  const locations = await serviceLocationIds(
    db,
    workspaceId,
    rows.filter((row) => row.archived_at === null).map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, location_ids: locations.get(row.id) ?? [] }));
}
