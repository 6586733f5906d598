import { type QueryCreator, type Selectable, sql } from 'kysely';
import type { Db } from '../db/client.js';
import type { CustomersTable, DB } from '../db/schema.js';
import { notFound } from '../errors.js';
import { toUtcIso } from '../time/zone.js';

export type CustomerRow = Selectable<CustomersTable>;

/**
 * Finds the customer with this E.164 phone or creates one (SPEC "Bookings" rule 2), race-free
 * through the unique (workspace_id, phone) key. Names and email fill fields that are still empty;
 * they never overwrite what the customer already has. Returned unrun, for a WITH clause (the
 * booking create writes the customer and the booking in one statement); add the RETURNING you need.
 */
export function upsertCustomer(
  db: QueryCreator<DB>,
  workspaceId: string,
  values: {
    phone: string;
    first_name?: string | undefined;
    last_name?: string | undefined;
    email?: string | undefined;
  },
) {
  return db
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
