import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { Page } from '../platform/http/pagination.js';

export interface CategoryRow {
  id: string;
  name: string;
  position: number;
}

/** Categories of the live services offered at a location, by position then name; and the total. */
export async function listCategoriesAtLocation(
  db: Db,
  workspaceId: string,
  locationId: string,
  page: Page,
): Promise<{ rows: CategoryRow[]; total: number }> {
  const used = (query: ReturnType<typeof categories>) =>
    query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('services as s')
          .innerJoin('service_locations as sl', (join) =>
            join.onRef('sl.workspace_id', '=', 's.workspace_id').onRef('sl.service_id', '=', 's.id'),
          )
          .select(sql`1`.as('one'))
          .whereRef('s.workspace_id', '=', 'c.workspace_id')
          .whereRef('s.category_id', '=', 'c.id')
          .where('s.archived_at', 'is', null)
          .where('sl.location_id', '=', locationId),
      ),
    );
  const categories = () => db.selectFrom('service_categories as c').where('c.workspace_id', '=', workspaceId);
  const rows = await used(categories())
    .select(['c.id', 'c.name', 'c.position', sql<number>`count(*) over ()`.as('total')])
    .orderBy('c.position')
    .orderBy('c.name')
    .orderBy('c.id')
    .limit(page.perPage)
    .offset(page.offset)
    .execute();
  let total = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && page.offset > 0) {
    const row = await used(categories()).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    total = Number(row.n);
  }
  return { rows: rows.map(({ id, name, position }) => ({ id, name, position })), total };
}

/** The workspace's categories by position then name (what a service form offers to pick from). */
export async function listCategories(db: Db, workspaceId: string): Promise<CategoryRow[]> {
  return db
    .selectFrom('service_categories')
    .select(['id', 'name', 'position'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('position')
    .orderBy('name')
    .limit(1000)
    .execute();
}
