import type { Db } from '../platform/db/client.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import type { ImportKind } from './import-rows.rules.js';

/** What an import matches its rows against: the workspace's live locations, services and staffers. */
export async function importLookups(db: Db, workspaceId: string) {
  const [locations, services, staffers] = await Promise.all([
    db
      .selectFrom('locations')
      .select(['id', 'name', 'timezone'])
      .where('workspace_id', '=', workspaceId)
      .where('archived_at', 'is', null)
      .execute(),
    db
      .selectFrom('services as s')
      .leftJoin('service_categories as c', (join) =>
        join.onRef('c.workspace_id', '=', 's.workspace_id').onRef('c.id', '=', 's.category_id'),
      )
      .select([
        's.id',
        's.name',
        's.duration_minutes',
        's.price',
        's.description',
        's.capacity',
        'c.name as category',
      ])
      .where('s.workspace_id', '=', workspaceId)
      .where('s.archived_at', 'is', null)
      .execute(),
    db
      .selectFrom('staffers')
      .select(['id', 'first_name', 'last_name', 'email', 'position'])
      .where('workspace_id', '=', workspaceId)
      .where('archived_at', 'is', null)
      .execute(),
  ]);
  return { locations, services, staffers };
}
export type ImportLookups = Awaited<ReturnType<typeof importLookups>>;

/** The live (not erased) customers with these phones. */
export async function customersByPhone(db: Db, workspaceId: string, phones: string[]) {
  if (phones.length === 0) return [];
  return db
    .selectFrom('customers')
    .select(['id', 'phone', 'first_name', 'last_name', 'email'])
    .where('workspace_id', '=', workspaceId)
    .where('phone', 'in', phones)
    .where('erased_at', 'is', null)
    .execute();
}

/** Whether a booking not canceled already starts then at that location for that phone. */
export async function bookingExists(
  db: Db,
  workspaceId: string,
  values: { locationId: string; start: Date; phone: string },
): Promise<boolean> {
  const row = await db
    .selectFrom('bookings as b')
    .innerJoin('customers as c', (join) =>
      join.onRef('c.workspace_id', '=', 'b.workspace_id').onRef('c.id', '=', 'b.customer_id'),
    )
    .innerJoin('booking_statuses as s', (join) =>
      join.onRef('s.workspace_id', '=', 'b.workspace_id').onRef('s.id', '=', 'b.status_id'),
    )
    .select('b.id')
    .where('b.workspace_id', '=', workspaceId)
    .where('b.location_id', '=', values.locationId)
    .where('b.start_time', '=', values.start)
    .where('c.phone', '=', values.phone)
    .where('s.type', '<>', 'canceled')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertUpload(
  tx: Tx,
  values: {
    workspaceId: string;
    kind: ImportKind;
    fileName: string;
    content: string;
    createdBy: string | null;
  },
): Promise<string> {
  const row = await tx
    .insertInto('import_uploads')
    .values({
      workspace_id: values.workspaceId,
      kind: values.kind,
      file_name: values.fileName,
      content: values.content,
      created_by: values.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findUpload(db: Db, workspaceId: string, id: string) {
  return db
    .selectFrom('import_uploads')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Claims the upload for its one run; false when it already ran (or is running). */
export async function claimUpload(tx: Tx, workspaceId: string, id: string, at: Date): Promise<boolean> {
  const result = await tx
    .updateTable('import_uploads')
    .set({ ran_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('ran_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function saveUploadResult(tx: Tx, workspaceId: string, id: string, result: object) {
  await tx
    .updateTable('import_uploads')
    .set({ result: JSON.stringify(result) })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .execute();
}
