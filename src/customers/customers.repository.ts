import { type RawBuilder, type Selectable, sql } from 'kysely';
import { notFound } from '../errors.js';
import type { Db } from '../platform/db/client.js';
import type { CustomersTable } from '../platform/db/schema.js';
import type { Tx } from '../platform/db/unit-of-work.js';
import { toUtcIso } from '../platform/time/zone.js';
import type { CustomerSearch } from './customer-search.rules.js';

export type CustomerRow = Selectable<CustomersTable>;

interface CustomerValues {
  phone: string;
  first_name?: string | undefined;
  last_name?: string | undefined;
  email?: string | undefined;
}

/**
 * Finds the customer with this E.164 phone or creates one (the public API's booking rule), race-free
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
      // The live-phone key (0025_customer_erasure.sql): an erased customer is never matched.
      oc
        .columns(['workspace_id', 'phone'])
        .where('erased_at', 'is', null)
        .doUpdateSet({
          first_name: sql`CASE WHEN customers.first_name = '' THEN excluded.first_name ELSE customers.first_name END`,
          last_name: sql`CASE WHEN customers.last_name = '' THEN excluded.last_name ELSE customers.last_name END`,
          email: sql`CASE WHEN customers.email = '' THEN excluded.email ELSE customers.email END`,
          // Filling an empty field is a change of the customer; a repeat that adds nothing is not.
          // excluded.updated_at is the proposed row's default, now(), which Citus would refuse here.
          updated_at: sql`CASE WHEN (customers.first_name = '' AND excluded.first_name <> '')
          OR (customers.last_name = '' AND excluded.last_name <> '')
          OR (customers.email = '' AND excluded.email <> '') THEN excluded.updated_at ELSE customers.updated_at END`,
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
    .orderBy('int_id')
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

/** `%text%` for LIKE, with the pattern's own characters taken literally. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The condition "this customer matches the search" on the customers table aliased `alias`
 * (also used by the bookings list's customer filter): the digits inside the E.164 phone, or the
 * text inside "first last", "last first" or the email.
 */
export function customerMatches(alias: 'c' | 'customers', search: CustomerSearch): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  if (search.digits !== undefined) return sql<boolean>`${column('phone')} LIKE ${likePattern(search.digits)}`;
  const pattern = likePattern(search.text ?? '');
  return sql<boolean>`(
    (${column('first_name')} || ' ' || ${column('last_name')}) ILIKE ${pattern}
    OR (${column('last_name')} || ' ' || ${column('first_name')}) ILIKE ${pattern}
    OR ${column('email')} ILIKE ${pattern})`;
}

/** One page of the customers matching the search (all without one), by name, and their total. */
export async function searchCustomers(
  db: Db,
  workspaceId: string,
  search: CustomerSearch | undefined,
  page: { perPage: number; offset: number },
): Promise<{ rows: CustomerRow[]; total: number }> {
  const matching = () => {
    const query = db.selectFrom('customers').where('workspace_id', '=', workspaceId);
    return search ? query.where(customerMatches('customers', search)) : query;
  };
  const rows = await matching()
    .selectAll()
    .select(sql<number>`count(*) over ()`.as('total'))
    .orderBy(sql`lower(first_name)`)
    .orderBy(sql`lower(last_name)`)
    .orderBy('phone')
    .orderBy('id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && page.offset > 0) {
    total = Number((await matching().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
  }
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

/** What the customer paid for their completed bookings, in minor units of the workspace currency. */
export async function customerPaidTotal(db: Db, workspaceId: string, customerId: string): Promise<number> {
  const row = await db
    .selectFrom('payments as p')
    .innerJoin('bookings as b', (j) =>
      j.onRef('b.workspace_id', '=', 'p.workspace_id').onRef('b.id', '=', 'p.booking_id'),
    )
    .innerJoin('booking_statuses as s', (j) =>
      j.onRef('s.workspace_id', '=', 'b.workspace_id').onRef('s.id', '=', 'b.status_id'),
    )
    .select(sql<string>`coalesce(sum(p.amount), 0)::text`.as('paid'))
    .where('p.workspace_id', '=', workspaceId)
    .where('b.customer_id', '=', customerId)
    .where('s.type', '=', 'completed')
    .executeTakeFirstOrThrow();
  return Number(row.paid);
}

/** Sets the given names and email of a customer (the import's update); false when not there. */
export async function updateCustomerRow(
  tx: Tx,
  workspaceId: string,
  customerId: string,
  changes: { first_name?: string; last_name?: string; email?: string },
  at: Date,
): Promise<boolean> {
  const result = await tx
    .updateTable('customers')
    .set({ ...changes, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', customerId)
    .where('erased_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
