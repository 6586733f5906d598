import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db } from '../platform/db/client.js';
import { JsonRows } from '../platform/db/json-rows.js';
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

const workspaceRows = new JsonRows<WorkspaceRow>(['created_at', 'updated_at']);

/**
 * A workspace row from `row_to_json(w)::text`, as selectAll gives it: the API's key check reads
 * the workspace on every request (src/platform/db/json-rows.ts says why as JSON).
 */
export function workspaceFromJson(id: string, text: string): WorkspaceRow {
  return workspaceRows.row(id, text);
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
