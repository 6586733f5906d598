import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';

/**
 * Manage links: `/book/<slug>/manage/<token>`, token = the booking uuid's 16
 * bytes and an HMAC-SHA256 tag over them (first 16 bytes), both base64url. The key is the
 * workspace's `booking_page_secret` (never shown), so links cannot be forged or guessed, and any
 * later notification can print the link again without storing it.
 */
const PART = 22; // base64url length of 16 bytes

function tag(workspace: WorkspaceRow, uuidBytes: Buffer): Buffer {
  return createHmac('sha256', workspace.booking_page_secret)
    .update('manage-link\0')
    .update(uuidBytes)
    .digest()
    .subarray(0, 16);
}

export function manageToken(workspace: WorkspaceRow, bookingId: string): string {
  const bytes = Buffer.from(bookingId.replaceAll('-', ''), 'hex');
  return bytes.toString('base64url') + tag(workspace, bytes).toString('base64url');
}

/** The booking uuid a token names, or undefined when the token is not one we signed. */
export function bookingIdOfToken(workspace: WorkspaceRow, token: string): string | undefined {
  if (token.length !== 2 * PART || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token.slice(0, PART), 'base64url');
  if (bytes.length !== 16) return undefined;
  const hex = bytes.toString('hex');
  const bookingId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  // Compared as the whole canonical string: base64url's last character of 16 bytes carries 4
  // unused bits, so a decoded comparison would accept several spellings of one token.
  const expected = Buffer.from(manageToken(workspace, bookingId));
  return timingSafeEqual(Buffer.from(token), expected) ? bookingId : undefined;
}
