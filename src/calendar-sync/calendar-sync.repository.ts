import { type Selectable, sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { CalendarConnectionsTable } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { BUSY_PIECE_MS, mergeBusy, piecesOf } from '../platform/time/busy-union.js';

export type ConnectionRow = Selectable<CalendarConnectionsTable>;

export async function findConnection(
  db: Db,
  workspaceId: string,
  stafferId: string,
): Promise<ConnectionRow | undefined> {
  return db
    .selectFrom('calendar_connections')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .executeTakeFirst();
}

export interface ConnectionValues {
  server_url: string;
  username: string;
  password_sealed: string;
  read_calendars: string[];
  write_calendar: string | null;
  all_day_blocks: boolean;
  show_titles: boolean;
  customer_name_in_events: boolean;
}

/**
 * Creates or replaces a staffer's connection. A changed address or user starts over: the objects
 * and spans of the old account go (cascade) and the sync state is emptied.
 */
export async function saveConnection(
  tx: Tx,
  workspaceId: string,
  stafferId: string,
  values: ConnectionValues,
  now: Date,
): Promise<void> {
  const existing = await findConnection(tx, workspaceId, stafferId);
  const sameAccount =
    existing && existing.server_url === values.server_url && existing.username === values.username;
  if (existing && !sameAccount) await deleteConnection(tx, workspaceId, stafferId);
  const row = {
    ...values,
    read_calendars: JSON.stringify(values.read_calendars),
    next_sync_at: now,
    updated_at: now,
  };
  if (existing && sameAccount) {
    await tx
      .updateTable('calendar_connections')
      // expanded_until null: the next sync expands every object again, so a calendar no longer
      // read (kept as the write calendar) stops blocking.
      .set({ ...row, status: 'ok', failure_count: 0, last_error: null, expanded_until: null })
      .where('workspace_id', '=', workspaceId)
      .where('staffer_id', '=', stafferId)
      .execute();
    // Calendars no longer asked (read, or written to for the read-back) lose their objects (and spans).
    const asked = values.write_calendar
      ? [...values.read_calendars, values.write_calendar]
      : values.read_calendars;
    await tx
      .deleteFrom('calendar_objects')
      .where('workspace_id', '=', workspaceId)
      .where('staffer_id', '=', stafferId)
      .where((eb) => (asked.length === 0 ? eb.val(true) : eb.not(eb('calendar_url', 'in', asked))))
      .execute();
    return;
  }
  await tx
    .insertInto('calendar_connections')
    .values({ workspace_id: workspaceId, staffer_id: stafferId, ...row })
    .execute();
}

export async function deleteConnection(tx: Tx, workspaceId: string, stafferId: string): Promise<boolean> {
  const result = await tx
    .deleteFrom('calendar_connections')
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Object URL -> ETag of one calendar, as last read. */
export async function knownObjects(
  db: Db,
  workspaceId: string,
  stafferId: string,
  calendarUrl: string,
): Promise<Map<string, string | null>> {
  const rows = await db
    .selectFrom('calendar_objects')
    .select(['href', 'etag'])
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .where('calendar_url', '=', calendarUrl)
    .execute();
  return new Map(rows.map((r) => [r.href, r.etag]));
}

export interface StoredObject {
  href: string;
  calendarUrl: string;
  etag: string | null;
  ics: string;
}

export async function upsertObjects(
  tx: Tx,
  workspaceId: string,
  stafferId: string,
  objects: StoredObject[],
): Promise<void> {
  for (let i = 0; i < objects.length; i += 500) {
    const batch = objects.slice(i, i + 500);
    await tx
      .insertInto('calendar_objects')
      .values(
        batch.map((o) => ({
          workspace_id: workspaceId,
          staffer_id: stafferId,
          href: o.href,
          calendar_url: o.calendarUrl,
          etag: o.etag,
          ics: o.ics,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'staffer_id', 'href']).doUpdateSet((eb) => ({
          calendar_url: eb.ref('excluded.calendar_url'),
          etag: eb.ref('excluded.etag'),
          ics: eb.ref('excluded.ics'),
          // The proposed row's default, now(): Citus refuses a function in DO UPDATE SET.
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** Removes objects (their spans go with them). */
export async function deleteObjects(
  tx: Tx,
  workspaceId: string,
  stafferId: string,
  hrefs: string[],
): Promise<void> {
  for (let i = 0; i < hrefs.length; i += 500) {
    await tx
      .deleteFrom('calendar_objects')
      .where('workspace_id', '=', workspaceId)
      .where('staffer_id', '=', stafferId)
      .where('href', 'in', hrefs.slice(i, i + 500))
      .execute();
  }
}

/** Objects of a calendar not among `keep` (after a full sync: gone from the server). */
export async function objectsMissingFrom(
  db: Db,
  workspaceId: string,
  stafferId: string,
  calendarUrl: string,
  keep: Set<string>,
): Promise<string[]> {
  const known = await knownObjects(db, workspaceId, stafferId, calendarUrl);
  return [...known.keys()].filter((href) => !keep.has(href));
}

export interface SpanValues {
  href: string;
  start: number;
  end: number;
  allDay: boolean;
  title: string;
}

/** Replaces the spans of the given objects. */
export async function replaceSpans(
  tx: Tx,
  workspaceId: string,
  stafferId: string,
  hrefs: string[],
  spans: SpanValues[],
): Promise<void> {
  for (let i = 0; i < hrefs.length; i += 500) {
    await tx
      .deleteFrom('calendar_busy_spans')
      .where('workspace_id', '=', workspaceId)
      .where('staffer_id', '=', stafferId)
      .where('href', 'in', hrefs.slice(i, i + 500))
      .execute();
  }
  // Pieces of at most a day (see the migration): a read by start is bounded.
  const pieces = spans.flatMap((s) => piecesOf(s));
  for (let i = 0; i < pieces.length; i += 1000) {
    await tx
      .insertInto('calendar_busy_spans')
      .values(
        pieces.slice(i, i + 1000).map((s) => ({
          workspace_id: workspaceId,
          staffer_id: stafferId,
          href: s.href,
          start_ms: s.start,
          end_ms: s.end,
          all_day: s.allDay,
          title: s.title.slice(0, 200),
        })),
      )
      .execute();
  }
}

/**
 * Rewrites the staffer's busy blocks (the union of all their stored spans, which the slot read
 * uses) after their spans changed, in the same transaction.
 */
export async function rebuildBusyBlocks(tx: Tx, workspaceId: string, stafferId: string): Promise<number> {
  const spans = await tx
    .selectFrom('calendar_busy_spans')
    .select(['start_ms as start', 'end_ms as end'])
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .execute();
  const blocks = mergeBusy(spans).flatMap((block) => piecesOf(block));
  await tx
    .deleteFrom('calendar_busy_blocks')
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .execute();
  for (let i = 0; i < blocks.length; i += 1000) {
    await tx
      .insertInto('calendar_busy_blocks')
      .values(
        blocks.slice(i, i + 1000).map((b) => ({
          workspace_id: workspaceId,
          staffer_id: stafferId,
          start_ms: b.start,
          end_ms: b.end,
        })),
      )
      .execute();
  }
  return blocks.length;
}

/** Every stored object of a staffer (to re-expand when the window moves). */
export async function allObjects(db: Db, workspaceId: string, stafferId: string): Promise<StoredObject[]> {
  const rows = await db
    .selectFrom('calendar_objects')
    .select(['href', 'calendar_url', 'etag', 'ics'])
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .execute();
  return rows.map((r) => ({ href: r.href, calendarUrl: r.calendar_url, etag: r.etag, ics: r.ics }));
}

export async function recordSyncSuccess(
  db: Db,
  workspaceId: string,
  stafferId: string,
  values: { syncState: ConnectionRow['sync_state']; now: Date; nextSyncAt: Date; expandedUntil: Date | null },
): Promise<void> {
  await db
    .updateTable('calendar_connections')
    .set({
      sync_state: JSON.stringify(values.syncState),
      status: 'ok',
      last_error: null,
      failure_count: 0,
      last_sync_at: values.now,
      last_success_at: values.now,
      next_sync_at: values.nextSyncAt,
      ...(values.expandedUntil ? { expanded_until: values.expandedUntil } : {}),
    })
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .execute();
}

export async function recordSyncFailure(
  db: Db,
  workspaceId: string,
  stafferId: string,
  values: { status: 'failing' | 'refused'; error: string; now: Date; nextSyncAt: Date },
): Promise<void> {
  await db
    .updateTable('calendar_connections')
    .set((eb) => ({
      status: values.status,
      last_error: values.error.slice(0, 500),
      failure_count: eb('failure_count', '+', 1),
      last_sync_at: values.now,
      next_sync_at: values.nextSyncAt,
    }))
    .where('workspace_id', '=', workspaceId)
    .where('staffer_id', '=', stafferId)
    .execute();
}

/**
 * Claims up to `limit` connections due for a sync: moves their next_sync_at on by `leaseMs`, so
 * another worker does not take them meanwhile (a crashed sync is retried when the lease ends).
 * A plain read of the due rows, then one conditional update per row by its key (it claims only
 * while the row is still due, so two workers never both win one): each statement touches one
 * workspace, which a distributed (Citus) database routes to one node.
 */
export async function claimDueConnections(
  db: Db,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<{ workspace_id: string; staffer_id: string }[]> {
  const due = await db
    .selectFrom('calendar_connections')
    .select(['workspace_id', 'staffer_id'])
    .where('next_sync_at', '<=', now)
    .orderBy('next_sync_at')
    .limit(limit)
    .execute();
  const claimed: { workspace_id: string; staffer_id: string }[] = [];
  for (const row of due) {
    const result = await db
      .updateTable('calendar_connections')
      .set({ next_sync_at: new Date(now.getTime() + leaseMs) })
      .where('workspace_id', '=', row.workspace_id)
      .where('staffer_id', '=', row.staffer_id)
      .where('next_sync_at', '<=', now)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) claimed.push(row);
  }
  return claimed;
}

/** Busy spans of a staffer overlapping [from, to), for the panel's calendar. */
export async function busySpansBetween(
  db: Db,
  workspaceId: string,
  stafferIds: string[],
  from: Date,
  to: Date,
): Promise<{ staffer_id: string; start_ms: number; end_ms: number; title: string; all_day: boolean }[]> {
  if (stafferIds.length === 0) return [];
  const result = await sql<{
    staffer_id: string;
    start_ms: number;
    end_ms: number;
    title: string;
    all_day: boolean;
  }>`
    SELECT b.staffer_id, b.start_ms, b.end_ms,
           CASE WHEN c.show_titles THEN b.title ELSE '' END AS title,
           b.all_day
    FROM calendar_busy_spans b
    JOIN calendar_connections c ON c.workspace_id = b.workspace_id AND c.staffer_id = b.staffer_id
    WHERE b.workspace_id = ${workspaceId}
      AND b.staffer_id = any(${stafferIds}::uuid[])
      AND b.start_ms > ${from.getTime() - BUSY_PIECE_MS}::float8
      AND b.start_ms < ${to.getTime()}::float8
      AND b.end_ms > ${from.getTime()}::float8
    ORDER BY b.start_ms
  `.execute(db);
  return result.rows.map((r) => ({ ...r, start_ms: Number(r.start_ms), end_ms: Number(r.end_ms) }));
}

/** Connections of a workspace that are not syncing, with the staffer's name (the home page's warning). */
export async function failingConnections(
  db: Db,
  workspaceId: string,
): Promise<{ staffer_id: string; first_name: string; last_name: string; status: 'failing' | 'refused' }[]> {
  const rows = await db
    .selectFrom('calendar_connections as c')
    .innerJoin('staffers as st', (join) =>
      join.onRef('st.workspace_id', '=', 'c.workspace_id').onRef('st.id', '=', 'c.staffer_id'),
    )
    .select(['c.staffer_id', 'st.first_name', 'st.last_name', 'c.status'])
    .where('c.workspace_id', '=', workspaceId)
    .where('c.status', '!=', 'ok')
    .where('st.archived_at', 'is', null)
    .orderBy('st.first_name')
    .execute();
  return rows.map((r) => ({ ...r, status: r.status === 'refused' ? 'refused' : 'failing' }));
}

/**
 * The zone floating and all-day times of a staffer's calendar are read in (the zone of the first
 * location the staffer works at, else the workspace's first location, else UTC) and the
 * workspace's booking horizon (how far ahead busy time matters).
 */
export async function stafferSyncFacts(
  db: Db,
  workspaceId: string,
  stafferId: string,
): Promise<{ zone: string; horizonDays: number }> {
  const result = await sql<{ zone: string | null; horizon_days: number }>`
    SELECT w.horizon_days,
           coalesce(
             (SELECT l.timezone FROM schedules sc JOIN locations l ON l.workspace_id = sc.workspace_id AND l.id = sc.location_id
              WHERE sc.workspace_id = ${workspaceId} AND sc.staffer_id = ${stafferId} AND l.archived_at IS NULL
              ORDER BY l.created_at LIMIT 1),
             (SELECT l.timezone FROM locations l WHERE l.workspace_id = ${workspaceId} AND l.archived_at IS NULL
              ORDER BY l.created_at LIMIT 1)
           ) AS zone
    FROM workspaces w WHERE w.id = ${workspaceId}
  `.execute(db);
  const row = result.rows[0];
  return { zone: row?.zone ?? 'UTC', horizonDays: row?.horizon_days ?? 90 };
}
