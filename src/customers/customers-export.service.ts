import { toCsv } from '../platform/csv.js';
import type { Db } from '../platform/db/client.js';
import { toUtcIso } from '../platform/time/zone.js';
import { listCustomers } from './customers.repository.js';

const PAGE = 1000;

/**
 * Every customer of the workspace as CSV, oldest first. The first four columns are the import's
 * (src/imports/), so an export re-imports as updates, never as duplicates; erased customers come
 * with empty fields and their erased_at.
 */
export async function customersCsv(db: Db, workspaceId: string): Promise<string> {
  const rows: unknown[][] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await listCustomers(db, workspaceId, {}, { perPage: PAGE, offset });
    for (const customer of page.rows) {
      rows.push([
        customer.phone,
        customer.first_name,
        customer.last_name,
        customer.email,
        customer.id,
        toUtcIso(customer.created_at.getTime()),
        customer.erased_at === null ? '' : toUtcIso(customer.erased_at.getTime()),
      ]);
    }
    if (page.rows.length < PAGE) break;
  }
  return toCsv(['phone', 'first_name', 'last_name', 'email', 'uuid', 'created_at', 'erased_at'], rows);
}
