import { sql } from 'kysely';
import { slotUnavailable } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { ResourceRequirementJson } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { ResourceNeedInput } from '../slots/engine/types.js';

const DAY_MS = 86_400_000;

/**
 * The engine's resource needs of a session at a location (docs/resources.md): per requirement,
 * the live units that can serve it (a named one, or every unit of the type at least as big as
 * the service's class) with the spans other sessions hold them within [from, to] (padded by a
 * day, like staffers' occupancies). One statement; none at all for a service needing nothing.
 * The spans come index-only from resource_occupancies_start (migration 0035).
 */
export async function loadResourceNeeds(
  db: Db,
  args: {
    workspaceId: string;
    locationId: string;
    requirements: ResourceRequirementJson[];
    capacity: number;
    from: number;
    to: number;
    /** A booking being changed does not count against itself. */
    excludeOccupancyId?: string | undefined;
  },
): Promise<ResourceNeedInput[]> {
  if (args.requirements.length === 0) return [];
  const types = [...new Set(args.requirements.map((r) => r.type))];
  // The workspace is named by the bound value in the lateral subquery, so Citus routes it to
  // one shard (as in slots.repository.ts); the GiST index of the exclusion constraint serves it.
  const result = await sql<UnitRow>`
    SELECT r.id, r.type, r.capacity, busy.start_ms, busy.end_ms
    FROM resources r
    CROSS JOIN LATERAL (
      -- Both aggregates are fed the same rows in the same order, so the arrays line up; the
      -- engine sorts them (prepareResources), so no ORDER BY makes the database sort them too.
      SELECT json_agg(ro.start_ms) AS start_ms, json_agg(ro.end_ms) AS end_ms
      FROM resource_occupancies ro
      WHERE ro.workspace_id = ${args.workspaceId}
        AND ro.resource_id = r.id
        AND ro.start_ms > ${args.from - 3 * DAY_MS}::float8
        AND ro.start_ms < ${args.to + DAY_MS}::float8
        AND ro.end_ms > ${args.from - DAY_MS}::float8
        ${args.excludeOccupancyId ? sql`AND ro.occupancy_id <> ${args.excludeOccupancyId}` : sql``}
    ) AS busy
    WHERE r.workspace_id = ${args.workspaceId}
      AND r.location_id = ${args.locationId}
      AND r.archived_at IS NULL
      AND r.type = any(${types}::text[])
    ORDER BY r.created_at, r.id
  `.execute(db);
  const units = result.rows.map((row) => ({
    id: row.id,
    type: row.type,
    capacity: row.capacity,
    busy: (row.start_ms ?? []).map((start, i) => ({ start, end: row.end_ms![i]! })),
  }));
  return args.requirements.map((requirement) => ({
    units: requirement.units,
    pool: units
      .filter((unit) =>
        requirement.resource_id !== null
          ? unit.id === requirement.resource_id && unit.type === requirement.type
          : unit.type === requirement.type && unit.capacity >= args.capacity,
      )
      .map((unit) => ({ resourceId: unit.id, busy: unit.busy })),
  }));
}

interface UnitRow {
  id: string;
  type: string;
  capacity: number;
  start_ms: number[] | null;
  end_ms: number[] | null;
}

/**
 * Holds the units a new session needs, in the session's transaction: per need, `units` of the
 * candidates in order. The database decides (exclusion constraint resource_occupancies_no_overlap):
 * a unit another transaction holds for an overlapping span is refused, the savepoint keeps the
 * transaction usable, and the next candidate is tried. Too few left: 409 slot_unavailable.
 * A session that holds units already (a group class gaining a seat) takes none: one room per class.
 */
export async function holdUnits(
  tx: Tx,
  args: {
    workspaceId: string;
    occupancyId: string;
    spanStart: Date;
    spanEnd: Date;
    needs: { units: number; candidates: string[] }[];
  },
): Promise<void> {
  if (args.needs.length === 0) return;
  const held = await tx
    .selectFrom('resource_occupancies')
    .select('resource_id')
    .where('workspace_id', '=', args.workspaceId)
    .where('occupancy_id', '=', args.occupancyId)
    .executeTakeFirst();
  if (held) return;
  const taken = new Set<string>();
  for (const need of args.needs) {
    let count = 0;
    for (const resourceId of need.candidates) {
      if (count >= need.units) break;
      if (taken.has(resourceId)) continue;
      if (await tryHold(tx, args, resourceId)) {
        taken.add(resourceId);
        count++;
      }
    }
    if (count < need.units) throw slotUnavailable();
  }
}

async function tryHold(
  tx: Tx,
  args: { workspaceId: string; occupancyId: string; spanStart: Date; spanEnd: Date },
  resourceId: string,
): Promise<boolean> {
  await sql`SAVEPOINT hold_unit`.execute(tx);
  try {
    await tx
      .insertInto('resource_occupancies')
      .values({
        workspace_id: args.workspaceId,
        occupancy_id: args.occupancyId,
        resource_id: resourceId,
        span: sql<string>`tstzrange(${args.spanStart}::timestamptz, ${args.spanEnd}::timestamptz)`,
        start_ms: args.spanStart.getTime(),
        end_ms: args.spanEnd.getTime(),
      })
      .execute();
    await sql`RELEASE SAVEPOINT hold_unit`.execute(tx);
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // 23P01: another session holds the unit then; 40P01: two holds deadlocked on the index, they
    // conflict, so this one is refused too (as takeSeat does).
    if (code !== '23P01' && code !== '40P01') throw error;
    await sql`ROLLBACK TO SAVEPOINT hold_unit`.execute(tx);
    return false;
  }
}

/** Frees a session's units once its last seat is released (cancel, reschedule, change). */
export async function releaseUnitsIfEmpty(tx: Tx, workspaceId: string, occupancyId: string): Promise<void> {
  await sql`
    DELETE FROM resource_occupancies ro
    WHERE ro.workspace_id = ${workspaceId} AND ro.occupancy_id = ${occupancyId}
      AND EXISTS (SELECT 1 FROM occupancies o
                  WHERE o.workspace_id = ${workspaceId} AND o.id = ${occupancyId} AND o.seats_taken = 0)
  `.execute(tx);
}

/** The session's units replaced by `resourceIds` (PUT /bookings/{uuid}/resources, the panel). */
export async function replaceUnits(
  tx: Tx,
  args: { workspaceId: string; occupancyId: string; span: OccupancySpan; resourceIds: string[] },
): Promise<void> {
  await tx
    .deleteFrom('resource_occupancies')
    .where('workspace_id', '=', args.workspaceId)
    .where('occupancy_id', '=', args.occupancyId)
    .execute();
  for (const resourceId of args.resourceIds) {
    try {
      await tx
        .insertInto('resource_occupancies')
        .values({
          workspace_id: args.workspaceId,
          occupancy_id: args.occupancyId,
          resource_id: resourceId,
          span: args.span.span,
          start_ms: args.span.startMs,
          end_ms: args.span.endMs,
        })
        .execute();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === '23P01' || code === '40P01') throw slotUnavailable();
      throw error;
    }
  }
}

export interface OccupancySpan {
  /** tstzrange text */
  span: string;
  startMs: number;
  endMs: number;
}

/** The span a session occupies, which the units it holds occupy too. */
export async function occupancySpan(
  tx: Tx,
  workspaceId: string,
  occupancyId: string,
): Promise<OccupancySpan> {
  const row = await tx
    .selectFrom('occupancies')
    .select([
      'span',
      sql<number>`date_part('epoch', lower(span)) * 1000`.as('start_ms'),
      sql<number>`date_part('epoch', upper(span)) * 1000`.as('end_ms'),
    ])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', occupancyId)
    .executeTakeFirstOrThrow();
  return { span: row.span, startMs: Number(row.start_ms), endMs: Number(row.end_ms) };
}

/** The units each of these sessions holds (booking reads and webhook bodies), by occupancy id. */
export async function unitsOfSessions(
  db: Db,
  workspaceId: string,
  occupancyIds: string[],
): Promise<Map<string, { uuid: string; type: string; name: string }[]>> {
  const result = new Map<string, { uuid: string; type: string; name: string }[]>();
  if (occupancyIds.length === 0) return result;
  const rows = await db
    .selectFrom('resource_occupancies as ro')
    .innerJoin('resources as r', (join) =>
      join.onRef('r.workspace_id', '=', 'ro.workspace_id').onRef('r.id', '=', 'ro.resource_id'),
    )
    .select(['ro.occupancy_id', 'r.id', 'r.type', 'r.name'])
    .where('ro.workspace_id', '=', workspaceId)
    .where('ro.occupancy_id', 'in', occupancyIds)
    .orderBy('r.type')
    .orderBy('r.name')
    .execute();
  for (const row of rows) {
    const list = result.get(row.occupancy_id) ?? [];
    list.push({ uuid: row.id, type: row.type, name: row.name });
    result.set(row.occupancy_id, list);
  }
  return result;
}
