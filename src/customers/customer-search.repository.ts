import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { CustomerRow } from './customers.repository.js';

/** `%text%` for LIKE, with the pattern's own characters taken literally. */
function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Customers of the workspace whose name contains `query` (any case; first, last or both, as
 * "Ada Lovelace") or whose phone contains its digits ("0151 123" finds +49151123...): the panel's
 * "customer by phone" search. At most `limit`, the most recently updated first.
 */
export async function searchCustomers(
  db: Db,
  workspaceId: string,
  query: string,
  limit = 10,
): Promise<CustomerRow[]> {
  const text = query.trim();
  if (text === '') return [];
  // A local number's leading 0 stands for the country code the stored E.164 phone has instead.
  const digits = text.replace(/\D/g, '').replace(/^0+/, '');
  const name = contains(text.toLowerCase());
  return db
    .selectFrom('customers')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        eb(sql`lower(first_name || ' ' || last_name)`, 'like', name),
        eb(sql`lower(last_name || ' ' || first_name)`, 'like', name),
        eb(sql`lower(email)`, 'like', name),
        ...(digits.length >= 3 ? [eb('phone', 'like', contains(digits))] : []),
      ]),
    )
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}
