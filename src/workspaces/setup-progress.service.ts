import type { Db } from '../platform/db/client.js';
import { listBookableWorkspaces, readSetupProgress } from './setup-progress.repository.js';

/** The next thing a new workspace needs before a customer can book, in the order it is done. */
export type SetupStep = 'location' | 'service' | 'staffer' | 'hours';

const ORDER: SetupStep[] = ['location', 'service', 'staffer', 'hours'];

/** The first missing step, or undefined once a first booking is possible. */
export async function nextSetupStep(db: Db, workspaceId: string): Promise<SetupStep | undefined> {
  const progress = await readSetupProgress(db, workspaceId);
  return ORDER.find((step) => !progress[step]);
}

/** The booking pages the server's front page lists: workspaces that can take a booking. */
export function bookingPagesToList(db: Db): Promise<{ slug: string; name: string }[]> {
  return listBookableWorkspaces(db);
}
