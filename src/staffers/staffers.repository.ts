import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { StaffersTable } from '../platform/db/schema.js';
import type { Page } from '../platform/http/pagination.js';

export type StafferRow = Selectable<StaffersTable>;
export type StafferValues = Partial<Omit<Insertable<StaffersTable>, 'workspace_id' | 'id'>>;

export interface Assignment {
  locationId: string;
  serviceIds: string[];
}

/** A staffer with what they provide where (live locations and services only). */
export interface StafferRecord extends StafferRow {
  assignments: Assignment[];
}

/**
 * One page of the live staffers who provide at least one live service at the location (the
 * caller has checked that the location itself is live), and their total.
 *
 * One query, walked in list order on staffers_list (migration 0006) with an EXISTS probe per
 * staffer: their assignments there by primary key, then the service by primary key. Its cost
 * grows with the number of staffers and never with their product with the services. No join to
 * service_locations: an assignment exists only where its service is offered
 * (replaceServiceLocations removes the assignments of a location the service leaves).
 */
export async function listStaffersAtLocation(
  db: Db,
  workspaceId: string,
  locationId: string,
  page: Page,
  /** The count when the caller knows it (staffers.service.ts keeps it per availability version). */
  knownTotal?: number,
) {
  const live = () =>
    db
      .selectFrom('staffers as st')
      .where('st.workspace_id', '=', workspaceId)
      .where('st.archived_at', 'is', null)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('staffer_services as ss')
            .innerJoin('services as s', (join) =>
              join.onRef('s.workspace_id', '=', 'ss.workspace_id').onRef('s.id', '=', 'ss.service_id'),
            )
            .select(sql`1`.as('one'))
            .whereRef('ss.workspace_id', '=', 'st.workspace_id')
            .whereRef('ss.staffer_id', '=', 'st.id')
            .where('ss.location_id', '=', locationId)
            .where('s.archived_at', 'is', null),
        ),
      );
  // The page and the count apart: a window count over the page made the planner test every
  // staffer (a hash join over all assignments, ~20 ms at 1,000 x 5), while a page alone stops
  // after its rows (1-6 ms) and a count alone takes ~5 ms, and only when not already known.
  const rows = await live()
    .selectAll('st')
    .orderBy('st.created_at')
    .orderBy('st.first_name')
    .orderBy('st.last_name')
    .orderBy('st.id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  // A first page that is not full is everything (the booking page and the panel ask for all).
  const whole = page.offset === 0 && rows.length < page.perPage;
  const total =
    knownTotal ??
    (whole
      ? rows.length
      : Number((await live().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n));
  const assignments = await stafferAssignments(
    db,
    workspaceId,
    rows.map((row) => row.id),
  );
  return {
    rows: rows.map((row) => ({ ...row, assignments: assignments.get(row.id) ?? [] })),
    total,
  };
}

export async function findStaffer(
  db: Db,
  workspaceId: string,
  stafferId: string,
): Promise<StafferRecord | undefined> {
  const row = await db
    .selectFrom('staffers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', stafferId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const assignments = await stafferAssignments(db, workspaceId, [row.id]);
  return { ...row, assignments: assignments.get(row.id) ?? [] };
}

/** staffer id -> live (location, services) they provide, oldest location and service first. */
export async function stafferAssignments(
  db: Db,
  workspaceId: string,
  stafferIds: string[],
): Promise<Map<string, Assignment[]>> {
  const result = new Map<string, Assignment[]>();
  if (stafferIds.length === 0) return result;
  const rows = await db
    .selectFrom('staffer_services as ss')
    .innerJoin('locations as l', (join) =>
      join.onRef('l.workspace_id', '=', 'ss.workspace_id').onRef('l.id', '=', 'ss.location_id'),
    )
    .innerJoin('services as s', (join) =>
      join.onRef('s.workspace_id', '=', 'ss.workspace_id').onRef('s.id', '=', 'ss.service_id'),
    )
    // No join to service_locations: an assignment exists only where its service is offered
    // (replaceServiceLocations removes the assignments of a location the service leaves), and
    // the join hashed every offer of the workspace for each page (~3 ms at 1,000 services).
    .select(['ss.staffer_id', 'ss.location_id', 'ss.service_id'])
    .where('ss.workspace_id', '=', workspaceId)
    .where('ss.staffer_id', 'in', stafferIds)
    .where('l.archived_at', 'is', null)
    .where('s.archived_at', 'is', null)
    .orderBy('l.created_at')
    .orderBy('l.int_id')
    .orderBy('s.created_at')
    .orderBy('s.int_id')
    .execute();
  for (const row of rows) {
    const list = result.get(row.staffer_id) ?? [];
    let assignment = list.find((entry) => entry.locationId === row.location_id);
    if (!assignment) {
      assignment = { locationId: row.location_id, serviceIds: [] };
      list.push(assignment);
    }
    assignment.serviceIds.push(row.service_id);
    result.set(row.staffer_id, list);
  }
  return result;
}

export async function insertStaffer(
  db: Db,
  workspaceId: string,
  values: StafferValues & { first_name: string },
): Promise<string> {
  const row = await db
    .insertInto('staffers')
    .values({ avatar: null, ...values, workspace_id: workspaceId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Updates a live staffer; false when there is none. */
export async function updateStafferRow(
  db: Db,
  workspaceId: string,
  stafferId: string,
  values: StafferValues,
): Promise<boolean> {
  const result = await db
    .updateTable('staffers')
    .set({ ...values, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', stafferId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Archives a live staffer (the row stays for their bookings); false when there is none. */
export async function archiveStafferRow(db: Db, workspaceId: string, stafferId: string): Promise<boolean> {
  const result = await db
    .updateTable('staffers')
    .set({ archived_at: sql`now()`, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', stafferId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The (location, service) pairs among those given where a live service is offered. */
export async function offeredPairs(
  db: Db,
  workspaceId: string,
  locationIds: string[],
  serviceIds: string[],
): Promise<Set<string>> {
  if (locationIds.length === 0 || serviceIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('service_locations as sl')
    .innerJoin('services as s', (join) =>
      join.onRef('s.workspace_id', '=', 'sl.workspace_id').onRef('s.id', '=', 'sl.service_id'),
    )
    .select(['sl.location_id', 'sl.service_id'])
    .where('sl.workspace_id', '=', workspaceId)
    .where('sl.location_id', 'in', locationIds)
    .where('sl.service_id', 'in', serviceIds)
    .where('s.archived_at', 'is', null)
    .execute();
  return new Set(rows.map((row) => pairKey(row.location_id, row.service_id)));
}

export const pairKey = (locationId: string, serviceId: string) => `${locationId}|${serviceId}`;

/** Replaces everything the staffer provides with `assignments`. */
export async function replaceStafferServices(
  db: Db,
  workspaceId: string,
  stafferId: string,
  assignments: Assignment[],
): Promise<void> {
  await db
    .deleteFrom('staffer_services')
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .execute();
  const rows = assignments.flatMap((assignment) =>
    assignment.serviceIds.map((service_id) => ({
      workspace_id: workspaceId,
      staffer_id: stafferId,
      location_id: assignment.locationId,
      service_id,
    })),
  );
  if (rows.length === 0) return;
  await db
    .insertInto('staffer_services')
    .values(rows)
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}

/**
 * One page of the workspace's live staffers, oldest first, with what they provide where, and
 * their total (the panel's Staff list; the API lists staffers per location only).
 */
export async function listStaffers(db: Db, workspaceId: string, page: Page) {
  const live = () =>
    db.selectFrom('staffers').where('workspace_id', '=', workspaceId).where('archived_at', 'is', null);
  const rows = await live()
    .selectAll()
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy('created_at')
    .orderBy('first_name')
    .orderBy('last_name')
    .orderBy('id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && page.offset > 0) {
    const row = await live().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    total = Number(row.n);
  }
  const assignments = await stafferAssignments(
    db,
    workspaceId,
    rows.map((row) => row.id),
  );
  return {
    rows: rows.map((row) => ({ ...row, assignments: assignments.get(row.id) ?? [] })),
    total,
  };
}

/** A (location, service) pair a staffer may be assigned to: a live service offered at a live location. */
export interface OfferedPair {
  location_id: string;
  location_name: string;
  service_id: string;
  service_name: string;
}

/**
 * Every pair a staffer may provide, locations and services each oldest first: the panel's
 * location x service matrix (the same pairs checkAssignments accepts).
 */
export async function listOfferedPairs(db: Db, workspaceId: string): Promise<OfferedPair[]> {
  return db
    .selectFrom('service_locations as sl')
    .innerJoin('locations as l', (join) =>
      join.onRef('l.workspace_id', '=', 'sl.workspace_id').onRef('l.id', '=', 'sl.location_id'),
    )
    .innerJoin('services as s', (join) =>
      join.onRef('s.workspace_id', '=', 'sl.workspace_id').onRef('s.id', '=', 'sl.service_id'),
    )
    .select([
      'l.id as location_id',
      'l.name as location_name',
      's.id as service_id',
      's.name as service_name',
    ])
    .where('sl.workspace_id', '=', workspaceId)
    .where('l.archived_at', 'is', null)
    .where('s.archived_at', 'is', null)
    .orderBy('l.created_at')
    .orderBy('l.int_id')
    .orderBy('s.created_at')
    .orderBy('s.int_id')
    .execute();
}
