import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Calendar feed tokens (docs/calendar-feeds.md): `<workspace><secret>`, both base64url, 22 + 43
 * characters. The workspace part routes the lookup to one workspace (every statement filters by
 * workspace_id); the secret part is an HMAC-SHA256 of the feed id and its nonce under
 * the workspace's secret (`booking_page_secret`, never shown), so the panel can show the URL again
 * without storing it. The store keeps only the token's sha256, and the lookup is by that hash: an
 * index equality on a digest, which tells a guesser nothing about how close a guess came.
 */
const WORKSPACE_PART = 22; // 16 bytes
const SECRET_PART = 43; // 32 bytes
const TOKEN = new RegExp(`^[A-Za-z0-9_-]{${WORKSPACE_PART + SECRET_PART}}$`);

export function newNonce(): string {
  return randomBytes(16).toString('base64url');
}

export function feedToken(
  workspace: { id: string; booking_page_secret: string },
  feedId: string,
  nonce: string,
) {
  const workspacePart = Buffer.from(workspace.id.replaceAll('-', ''), 'hex').toString('base64url');
  const secret = createHmac('sha256', workspace.booking_page_secret)
    .update('calendar-feed\0')
    .update(feedId)
    .update('\0')
    .update(nonce)
    .digest('base64url');
  return workspacePart + secret;
}

export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The workspace a well-formed token names, or undefined for anything else. */
export function workspaceOfToken(token: string): string | undefined {
  if (!TOKEN.test(token)) return undefined;
  const hex = Buffer.from(token.slice(0, WORKSPACE_PART), 'base64url').toString('hex');
  if (hex.length !== 32) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
