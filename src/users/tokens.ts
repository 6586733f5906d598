import { createHash, randomBytes } from 'node:crypto';

/**
 * Session cookies, invite links and reset links carry 256 random bits; the database keeps only
 * their sha256, so a leaked table opens nothing. A fast hash is enough at that entropy.
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
