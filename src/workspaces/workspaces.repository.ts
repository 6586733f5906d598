import type { Selectable } from 'kysely';
import type { Db } from '../platform/db/client.js';
import type { WorkspacesTable } from '../platform/db/schema.js';

export type WorkspaceRow = Selectable<WorkspacesTable>;

export async function findWorkspaceBySlug(db: Db, slug: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('slug', '=', slug).executeTakeFirst();
}

export async function findWorkspaceById(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst();
}
