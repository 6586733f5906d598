import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { PaymentAccountsTable } from '../platform/db/schema.js';

export type PaymentAccountRow = Selectable<PaymentAccountsTable>;
export type PaymentAccountValues = Partial<
  Omit<Insertable<PaymentAccountsTable>, 'workspace_id' | 'id' | 'location_id'>
>;

/** The live payment accounts of a location, oldest first (a short list: not paginated). */
export async function listPaymentAccounts(
  db: Db,
  workspaceId: string,
  locationId: string,
): Promise<PaymentAccountRow[]> {
  return db
    .selectFrom('payment_accounts')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('location_id', '=', locationId)
    .where('archived_at', 'is', null)
    .orderBy('created_at')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** A live payment account of that location, or undefined (also when it belongs to another one). */
export async function findPaymentAccount(
  db: Db,
  workspaceId: string,
  locationId: string,
  accountId: string,
): Promise<PaymentAccountRow | undefined> {
  return db
    .selectFrom('payment_accounts')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('location_id', '=', locationId)
    .where('id', '=', accountId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
}

export async function insertPaymentAccount(
  db: Db,
  workspaceId: string,
  locationId: string,
  values: PaymentAccountValues & { name: string },
): Promise<PaymentAccountRow> {
  return db
    .insertInto('payment_accounts')
    .values({ ...values, workspace_id: workspaceId, location_id: locationId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updatePaymentAccountRow(
  db: Db,
  workspaceId: string,
  locationId: string,
  accountId: string,
  values: PaymentAccountValues,
): Promise<PaymentAccountRow | undefined> {
  return db
    .updateTable('payment_accounts')
    .set({ ...values, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('location_id', '=', locationId)
    .where('id', '=', accountId)
    .where('archived_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

/** Archives a live account (payments keep pointing at it); false when there is none. */
export async function archivePaymentAccountRow(
  db: Db,
  workspaceId: string,
  locationId: string,
  accountId: string,
): Promise<boolean> {
  const result = await db
    .updateTable('payment_accounts')
    .set({ archived_at: sql`now()`, updated_at: sql`now()` })
    .where('workspace_id', '=', workspaceId)
    .where('location_id', '=', locationId)
    .where('id', '=', accountId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every payment account of the workspace (archived ones too), by location, oldest first. */
export async function listAllPaymentAccounts(db: Db, workspaceId: string): Promise<PaymentAccountRow[]> {
  return db
    .selectFrom('payment_accounts')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('location_id')
    .orderBy(sql`archived_at is not null`)
    .orderBy('created_at')
    .orderBy('name')
    .orderBy('id')
    .limit(5000)
    .execute();
}
