import { type Selectable, sql } from 'kysely';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { CustomersTable } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { toUtcIso } from '../platform/time/zone.js';

export type CustomerRow = Selectable<CustomersTable>;

interface CustomerValues {
  phone: string;
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
}

/**
 * Finds the customer with this E.164 phone or creates one (SPEC "Bookings" rule 2), race-free
 * through the unique (workspace_id, phone) key. Names and email fill fields that are still empty;
 * they never overwrite what the customer already has.
 */
function upsertStatement(tx: Tx, workspaceId: string, values: CustomerValues) {
  return tx
    .insertInto('customers')
    .values({
      workspace_id: workspaceId,
      phone: values.phone,
      first_name: values.first_name ?? '',
      last_name: values.last_name ?? '',
      email: values.email ?? '',
    })
    .onConflict((oc) =>
      oc.columns(['workspace_id', 'phone']).doUpdateSet({
        first_name: sql`CASE WHEN customers.first_name = '' THEN excluded.first_name ELSE customers.first_name END`,
        last_name: sql`CASE WHEN customers.last_name = '' THEN excluded.last_name ELSE customers.last_name END`,
        email: sql`CASE WHEN customers.email = '' THEN excluded.email ELSE customers.email END`,
        // Filling an empty field is a change of the customer; a repeat that adds nothing is not.
        updated_at: sql`CASE WHEN (customers.first_name = '' AND excluded.first_name <> '')
          OR (customers.last_name = '' AND excluded.last_name <> '')
          OR (customers.email = '' AND excluded.email <> '') THEN now() ELSE customers.updated_at END`,
      }),
    );
}

/** upsertStatement, answering the customer's id (the booking create path). */
export async function upsertCustomer(tx: Tx, workspaceId: string, values: CustomerValues): Promise<string> {
  const row = await upsertStatement(tx, workspaceId, values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** upsertStatement, answering the whole row and whether this statement inserted it (POST /customers). */
export async function upsertCustomerRow(
  tx: Tx,
  workspaceId: string,
  values: CustomerValues,
): Promise<{ customer: CustomerRow; created: boolean }> {
  const { inserted, ...customer } = await upsertStatement(tx, workspaceId, values)
    .returningAll()
    // xmax is 0 on a row this statement inserted, and set on one it updated.
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .executeTakeFirstOrThrow();
  return { customer, created: inserted };
}

export async function requireCustomer(db: Db, workspaceId: string, customerId: string): Promise<CustomerRow> {
  const row = await db
    .selectFrom('customers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', customerId)
    .executeTakeFirst();
  if (!row) throw notFound('Customer');
  return row;
}

export async function listCustomers(
  db: Db,
  workspaceId: string,
  filter: { phone?: string | undefined },
  page: { perPage: number; offset: number },
): Promise<{ rows: CustomerRow[]; total: number }> {
  let query = db.selectFrom('customers').selectAll().where('workspace_id', '=', workspaceId);
  if (filter.phone !== undefined) query = query.where('phone', '=', filter.phone);
  const rows = await query
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  let total = rows[0]?.total;
  if (total === undefined) {
    total = 0;
    if (page.offset > 0) {
      let count = db
        .selectFrom('customers')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('workspace_id', '=', workspaceId);
      if (filter.phone !== undefined) count = count.where('phone', '=', filter.phone);
      total = (await count.executeTakeFirstOrThrow()).n;
    }
  }
  return { rows, total: Number(total) };
}

export function presentCustomer(row: CustomerRow) {
  return {
    uuid: row.id,
    phone: row.phone,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    created_at: toUtcIso(row.created_at.getTime()),
    updated_at: toUtcIso(row.updated_at.getTime()),
  };
}
