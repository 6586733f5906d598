import { sql } from 'kysely';
import { slotUnavailable } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { ResourceRequirementJson } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { BUSY_PIECE_MS, mergeBusy, piecesOf } from '../platform/time/busy-union.js';
import type { ResourceNeedInput } from '../slots/engine/types.js';

const DAY_MS = 86_400_000;

/**
 * The engine's resource needs of a session at a location (docs/resources.md): per requirement,
 * the live units that can serve it (a named one, or every unit of the type at least as big as
 * the service's class) with the time each is busy within [from, to] (padded by a day, like
 * staffers' occupancies). One statement; none at all for a service needing nothing.
 * The busy time is the union of the unit's holds (resource_busy_blocks, migration 0041): a few
 * rows per unit and day. A booking being changed does not count against itself, and the union
 * cannot leave one hold out, so that check reads the holds themselves (resource_occupancies).
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
  // one shard (as in slots.repository.ts). Both aggregates are fed the same rows in the same
  // order, so the arrays line up; the engine sorts them (prepareResources), so no ORDER BY makes
  // the database sort them too.
  const busy = args.excludeOccupancyId
    ? // A hold lasts at most 2 days (duration and buffers are capped): one overlapping the padded
      // window starts after its start minus 2 days; resource_occupancies_start serves the scan.
      sql`
      SELECT json_agg(ro.start_ms) AS start_ms, json_agg(ro.end_ms) AS end_ms
      FROM resource_occupancies ro
      WHERE ro.workspace_id = ${args.workspaceId}
        AND ro.resource_id = r.id
        AND ro.start_ms > ${args.from - 3 * DAY_MS}::float8
        AND ro.start_ms < ${args.to + DAY_MS}::float8
        AND ro.end_ms > ${args.from - DAY_MS}::float8
        AND ro.occupancy_id <> ${args.excludeOccupancyId}`
    : // A piece lasts at most a day: one overlapping the padded window starts after its start
      // minus a day, so the primary key's btree bounds the scan.
      sql`
      SELECT json_agg(b.start_ms) AS start_ms, json_agg(b.end_ms) AS end_ms
      FROM resource_busy_blocks b
      WHERE b.workspace_id = ${args.workspaceId}
        AND b.resource_id = r.id
        AND b.start_ms > ${args.from - DAY_MS - BUSY_PIECE_MS}::float8
        AND b.start_ms < ${args.to + DAY_MS}::float8
        AND b.end_ms > ${args.from - DAY_MS}::float8`;
  const result = await sql<UnitRow>`
    SELECT r.id, r.type, r.capacity, busy.start_ms, busy.end_ms
    FROM resources r
    CROSS JOIN LATERAL (${busy}) AS busy
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
    await lockUnits(tx, args.workspaceId, [resourceId]);
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
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // 23P01: another session holds the unit then; 40P01: two holds deadlocked on the index or
    // the unit's lock, they conflict, so this one is refused too (as takeSeat does).
    if (code !== '23P01' && code !== '40P01') throw error;
    await sql`ROLLBACK TO SAVEPOINT hold_unit`.execute(tx);
    return false;
  }
  await refreshBusyBlocks(tx, args.workspaceId, resourceId, args.spanStart.getTime(), args.spanEnd.getTime());
  return true;
}

/**
 * Serialises the changes of these units' holds until the transaction ends, so the union each
 * change rewrites (refreshBusyBlocks) is read after every earlier change committed: without it
 * two bookings of one room at neighbouring times could each write a union missing the other's
 * hold. Units in id order, so two changes of the same units queue instead of deadlocking.
 * NO KEY: it does not wait for the foreign key checks (KEY SHARE) of holds being inserted.
 */
async function lockUnits(tx: Tx, workspaceId: string, resourceIds: string[]): Promise<void> {
  if (resourceIds.length === 0) return;
  await tx
    .selectFrom('resources')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...new Set(resourceIds)].sort())
    .orderBy('id')
    .forNoKeyUpdate()
    .execute();
}

/**
 * Rewrites a unit's busy pieces around [startMs, endMs] after a hold there was added or removed
 * (the unit locked by lockUnits). The region is the changed span widened to the pieces touching
 * it: pieces are disjoint, so every hold overlapping the region lies in it or in a piece outside
 * it that this change does not touch; the region's pieces are the union of its holds clipped to
 * it. Pieces outside stay as they are (a piece may touch its neighbour; the engine joins them).
 */
async function refreshBusyBlocks(
  tx: Tx,
  workspaceId: string,
  resourceId: string,
  startMs: number,
  endMs: number,
): Promise<void> {
  const touching = await tx
    .selectFrom('resource_busy_blocks')
    .select(['start_ms', 'end_ms'])
    .where('workspace_id', '=', workspaceId)
    .where('resource_id', '=', resourceId)
    .where('start_ms', '>=', startMs - BUSY_PIECE_MS)
    .where('start_ms', '<=', endMs)
    .where('end_ms', '>=', startMs)
    .execute();
  const lo = Math.min(startMs, ...touching.map((b) => b.start_ms));
  const hi = Math.max(endMs, ...touching.map((b) => b.end_ms));
  if (touching.length > 0) {
    await tx
      .deleteFrom('resource_busy_blocks')
      .where('workspace_id', '=', workspaceId)
      .where('resource_id', '=', resourceId)
      .where(
        'start_ms',
        'in',
        touching.map((b) => b.start_ms),
      )
      .execute();
  }
  const holds = await tx
    .selectFrom('resource_occupancies')
    .select(['start_ms', 'end_ms'])
    .where('workspace_id', '=', workspaceId)
    .where('resource_id', '=', resourceId)
    .where('start_ms', '>', lo - 3 * DAY_MS)
    .where('start_ms', '<', hi)
    .where('end_ms', '>', lo)
    .execute();
  const pieces = mergeBusy(
    holds.map((h) => ({ start: Math.max(lo, h.start_ms), end: Math.min(hi, h.end_ms) })),
  ).flatMap((block) => piecesOf(block));
  if (pieces.length === 0) return;
  await tx
    .insertInto('resource_busy_blocks')
    .values(
      pieces.map((p) => ({
        workspace_id: workspaceId,
        resource_id: resourceId,
        start_ms: p.start,
        end_ms: p.end,
      })),
    )
    .execute();
}

/** Frees a session's units once its last seat is released (cancel, reschedule, change). */
export async function releaseUnitsIfEmpty(tx: Tx, workspaceId: string, occupancyId: string): Promise<void> {
  const held = await tx
    .selectFrom('resource_occupancies as ro')
    .innerJoin('occupancies as o', (join) =>
      join.onRef('o.workspace_id', '=', 'ro.workspace_id').onRef('o.id', '=', 'ro.occupancy_id'),
    )
    .select(['ro.resource_id', 'ro.start_ms', 'ro.end_ms'])
    .where('ro.workspace_id', '=', workspaceId)
    .where('ro.occupancy_id', '=', occupancyId)
    .where('o.seats_taken', '=', 0)
    .execute();
  if (held.length === 0) return;
  await lockUnits(
    tx,
    workspaceId,
    held.map((h) => h.resource_id),
  );
  await tx
    .deleteFrom('resource_occupancies')
    .where('workspace_id', '=', workspaceId)
    .where('occupancy_id', '=', occupancyId)
    .execute();
  for (const hold of held)
    await refreshBusyBlocks(tx, workspaceId, hold.resource_id, hold.start_ms, hold.end_ms);
}

/** The session's units replaced by `resourceIds` (PUT /bookings/{uuid}/resources, the panel). */
export async function replaceUnits(
  tx: Tx,
  args: { workspaceId: string; occupancyId: string; span: OccupancySpan; resourceIds: string[] },
): Promise<void> {
  const before = await tx
    .selectFrom('resource_occupancies')
    .select(['resource_id', 'start_ms', 'end_ms'])
    .where('workspace_id', '=', args.workspaceId)
    .where('occupancy_id', '=', args.occupancyId)
    .execute();
  try {
    await lockUnits(tx, args.workspaceId, [...before.map((h) => h.resource_id), ...args.resourceIds]);
    await tx
      .deleteFrom('resource_occupancies')
      .where('workspace_id', '=', args.workspaceId)
      .where('occupancy_id', '=', args.occupancyId)
      .execute();
    for (const resourceId of args.resourceIds) {
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
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === '23P01' || code === '40P01') throw slotUnavailable();
    throw error;
  }
  for (const hold of before)
    await refreshBusyBlocks(tx, args.workspaceId, hold.resource_id, hold.start_ms, hold.end_ms);
  for (const resourceId of args.resourceIds) {
    await refreshBusyBlocks(tx, args.workspaceId, resourceId, args.span.startMs, args.span.endMs);
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
