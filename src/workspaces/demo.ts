import type { CreatedApiKey } from '../auth/api-keys.js';
import type { Db } from '../db/client.js';
import type { WorkspaceRow } from './workspaces.repository.js';
import { createWorkspace } from './workspaces.service.js';

export const DEMO_SLUG = 'demo';

/** First run: an empty store gets the demo workspace. Returns it when it was created now. */
export async function seedDemoIfEmpty(
  db: Db,
  _now: number,
): Promise<{ workspace: WorkspaceRow; apiKey: CreatedApiKey } | undefined> {
  const any = await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst();
  if (any) return undefined;
  return createWorkspace(db, { slug: DEMO_SLUG, name: 'Kairos Demo Studio' }, 'demo');
}
