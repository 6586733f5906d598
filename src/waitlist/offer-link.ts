import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';

/**
 * An offer's claim link: `/book/<slug>/waitlist/offer/<token>`, token = the offer uuid's 16 bytes
 * and an HMAC-SHA256 tag over them (first 16 bytes), both base64url, keyed by the workspace's
 * `booking_page_secret`, like a manage link (src/bookings/manage-link.ts): the email and the text
 * print it again from the offer's id, and nobody can guess one. The store keeps only the token's
 * sha256 (`waitlist_offers.token_hash`), which the claim's guarded update names.
 */
const PART = 22;

function tag(workspace: WorkspaceRow, bytes: Buffer): Buffer {
  return createHmac('sha256', workspace.booking_page_secret)
    .update('waitlist-offer\0')
    .update(bytes)
    .digest()
    .subarray(0, 16);
}

export function offerToken(workspace: WorkspaceRow, offerId: string): string {
  const bytes = Buffer.from(offerId.replaceAll('-', ''), 'hex');
  return bytes.toString('base64url') + tag(workspace, bytes).toString('base64url');
}

/** The offer uuid a token names, or undefined when it is not one we signed. */
export function offerIdOfToken(workspace: WorkspaceRow, token: string): string | undefined {
  if (token.length !== 2 * PART || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token.slice(0, PART), 'base64url');
  if (bytes.length !== 16) return undefined;
  const hex = bytes.toString('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const expected = Buffer.from(offerToken(workspace, id));
  return timingSafeEqual(Buffer.from(token), expected) ? id : undefined;
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The claim link of an offer, as a path under the public base. */
export function offerLinkPath(workspace: WorkspaceRow, offerId: string): string {
  return `/book/${encodeURIComponent(workspace.slug)}/waitlist/offer/${offerToken(workspace, offerId)}`;
}
