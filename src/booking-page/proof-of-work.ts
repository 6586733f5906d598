import { createHmac } from 'node:crypto';
import { createChallenge, verifySolution } from 'altcha-lib/v1';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';

/**
 * ALTCHA proof-of-work on the confirm step (against spam), self-hosted: the challenge is
 * signed with a key derived from the workspace's booking-page secret, expires after 10 minutes,
 * and each solved challenge is accepted once per process (a bot cannot reuse one solution).
 * The v1 (SHA-256) format is used because a browser solves it with crypto.subtle in a few lines,
 * without shipping the library to the page.
 */
const MAX_NUMBER = 100_000; // ~50k hashes on average: well under a second on a phone
const EXPIRES_MS = 10 * 60_000;
const used = new Map<string, number>();

function hmacKey(workspace: WorkspaceRow): string {
  return createHmac('sha256', workspace.booking_page_secret).update('altcha').digest('hex');
}

/** Expiry runs on the real clock (not the app's injected one): ALTCHA checks it with Date.now(). */
export function newChallenge(workspace: WorkspaceRow) {
  return createChallenge({
    hmacKey: hmacKey(workspace),
    maxNumber: MAX_NUMBER,
    expires: new Date(Date.now() + EXPIRES_MS),
  });
}

/** True once for a valid, unexpired, not yet used solution (the form's `altcha` field). */
export async function acceptSolution(workspace: WorkspaceRow, payload: string): Promise<boolean> {
  const now = Date.now();
  if (payload === '' || payload.length > 2000) return false;
  let ok = false;
  try {
    ok = await verifySolution(payload, hmacKey(workspace), true);
  } catch {
    return false;
  }
  if (!ok) return false;
  for (const [key, expires] of used) if (expires < now) used.delete(key);
  const key = `${workspace.id}:${payload}`;
  if (used.has(key)) return false;
  used.set(key, now + EXPIRES_MS);
  return true;
}
