import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../platform/db/client.js';
import { precompiled } from '../platform/db/precompiled.js';
import type { BookingForm, WorkspacesTable } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';

export type WorkspaceRow = Selectable<WorkspacesTable>;

/**
 * The workspace a slug names (workspaces is global: a reference table on Citus). Compiled once:
 * the API's auth looks it up on every request (src/app/api/api-auth.ts).
 */
export async function findWorkspaceBySlug(db: Db, slug: string): Promise<WorkspaceRow | undefined> {
  return (await workspaceBySlug(db, slug)).rows[0];
}

const workspaceBySlug = precompiled(1, (db, slug: string) =>
  db.selectFrom('workspaces').selectAll().where('slug', '=', slug),
);

/** Rows parsed from their JSON text, by workspace id, with the text they were parsed from. */
const parsedRows = new Map<string, { text: string; row: WorkspaceRow }>();
const PARSED_ROWS_KEPT = 1000;

/**
 * A workspace row from `row_to_json(w)::text`, as a typed row (the same values as selectAll):
 * the API's key check reads the workspace on every request, and its 19 columns (three of them
 * JSON) cost the client more to decode than the rest of a small request. One text column costs
 * nothing to decode, and an unchanged row is not parsed again: the text is compared with the
 * text the kept row came from, so any change in any column is seen at once. The kept rows are
 * frozen, since requests share them.
 */
export function workspaceFromJson(id: string, text: string): WorkspaceRow {
  const kept = parsedRows.get(id);
  if (kept !== undefined && kept.text === text) return kept.row;
  const parsed = JSON.parse(text) as WorkspaceRow & { created_at: string; updated_at: string };
  const row = deepFreeze({
    ...parsed,
    created_at: new Date(parsed.created_at),
    updated_at: new Date(parsed.updated_at),
  }) as WorkspaceRow;
  if (kept === undefined && parsedRows.size >= PARSED_ROWS_KEPT) parsedRows.clear();
  parsedRows.set(id, { text, row });
  return row;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export async function findWorkspaceById(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Whether the store holds any workspace at all (first run seeds the demo when not). */
export async function anyWorkspaceExists(db: Db): Promise<boolean> {
  const row = await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export function insertWorkspace(tx: Tx, values: Insertable<WorkspacesTable>): Promise<WorkspaceRow> {
  return tx.insertInto('workspaces').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Sets the whole booking form (the demo seed's; settings merge theirs with updateWorkspace). */
export async function replaceBookingForm(
  tx: Db,
  workspaceId: string,
  form: BookingForm,
  at: Date,
): Promise<void> {
  await tx
    .updateTable('workspaces')
    .set({ booking_form: JSON.stringify(form), updated_at: at })
    .where('id', '=', workspaceId)
    .execute();
}

/** Column changes, plus booking form fields to merge into the stored form (the rest kept). */
export type WorkspaceChanges = Omit<Updateable<WorkspacesTable>, 'booking_form' | 'id' | 'slug'> & {
  booking_form_patch?: Partial<BookingForm>;
};

/** One UPDATE; the form merges inside it (jsonb ||), so concurrent changes of different fields both stick. */
export function updateWorkspace(
  tx: Tx,
  workspaceId: string,
  changes: WorkspaceChanges,
): Promise<WorkspaceRow> {
  const { booking_form_patch: formPatch, ...columns } = changes;
  return tx
    .updateTable('workspaces')
    .set({
      ...columns,
      ...(formPatch
        ? { booking_form: sql<string>`booking_form || ${JSON.stringify(formPatch)}::jsonb` }
        : {}),
      updated_at: sql`now()`,
    })
    .where('id', '=', workspaceId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
