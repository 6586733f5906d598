import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import type { FieldIssue } from '../errors.js';

/**
 * Password hashing with node:crypto scrypt. The parameters travel with each hash
 * (`scrypt$N$r$p$salt$hash`), so raising them later leaves existing hashes readable.
 * N = 2^15, r = 8 (32 MiB per hash): one of OWASP's scrypt settings, ~100-300 ms on a small box,
 * run on libuv's thread pool so the event loop keeps serving.
 */
const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { ...options, maxmem: 256 * 128 * (options.N ?? N) * (options.r ?? R) },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time comparison; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash no password matches in practice, checked when the email is unknown: the answer then
 * takes as long as for a wrong password, so timing does not tell which emails have accounts.
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(24).toString('base64url'));
  return dummyHash;
}

/** A readable one-time password (first run, `user create`): 20 characters, ~119 bits. */
export function generateOneTimePassword(): string {
  return randomBytes(15).toString('base64url');
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function passwordProblem(password: string): { message: string; issue: FieldIssue } | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return {
      message: `The password must be at least ${PASSWORD_MIN_LENGTH} characters.`,
      issue: { kind: 'too_short', limit: PASSWORD_MIN_LENGTH },
    };
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    return {
      message: `The password must be at most ${PASSWORD_MAX_LENGTH} characters.`,
      issue: { kind: 'too_long', limit: PASSWORD_MAX_LENGTH },
    };
  }
  return undefined;
}
