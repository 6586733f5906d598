import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  dataDirSecret,
  keyFromSecret,
  SecretKeyMissing,
  SecretUnreadable,
  secretBox,
  secretBoxOf,
} from './secrets.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kairos-secrets-'));
  dirs.push(dir);
  return dir;
};

describe('secrets at rest', () => {
  const box = secretBox(keyFromSecret('x'.repeat(32)));

  it('seals to a value that holds no plain text and opens to the same text', () => {
    const sealed = box.seal('auth-token-123', 'ctx:a');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('auth-token');
    expect(box.open(sealed, 'ctx:a')).toBe('auth-token-123');
    // A fresh IV each time: the same secret never seals to the same value twice.
    expect(box.seal('auth-token-123', 'ctx:a')).not.toBe(sealed);
  });

  it('refuses another context, another key and an altered value', () => {
    const sealed = box.seal('secret', 'text-credentials:one');
    expect(() => box.open(sealed, 'text-credentials:two')).toThrow(SecretUnreadable);
    expect(() => secretBox(keyFromSecret('y'.repeat(32))).open(sealed, 'text-credentials:one')).toThrow(
      SecretUnreadable,
    );
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.open(parts.join('.'), 'text-credentials:one')).toThrow(SecretUnreadable);
    expect(() => box.open('not sealed', 'text-credentials:one')).toThrow(SecretUnreadable);
  });

  it('refuses a short SECRET_KEY', () => {
    expect(() => keyFromSecret('short')).toThrow(/at least 32/);
  });

  it('the embedded store makes its key once, private to its owner, and reuses it', () => {
    const dir = tempDir();
    const first = dataDirSecret(dir);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(dataDirSecret(dir)).toBe(first);
    expect(readFileSync(path.join(dir, 'secret.key'), 'utf8').trim()).toBe(first);
    expect(statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    // A process started later (a restart) opens what an earlier one sealed.
    const sealed = secretBoxOf({ secretKey: undefined, databaseUrl: undefined, dataDir: dir }).seal('a', 'c');
    expect(secretBox(keyFromSecret(dataDirSecret(dir))).open(sealed, 'c')).toBe('a');
  });

  it('makes no key file until a credential is sealed', () => {
    const dir = tempDir();
    const lazy = secretBoxOf({
      secretKey: undefined,
      databaseUrl: undefined,
      dataDir: path.join(dir, 'data'),
    });
    expect(() => statSync(path.join(dir, 'data', 'secret.key'))).toThrow();
    lazy.seal('a', 'c');
    expect(statSync(path.join(dir, 'data', 'secret.key')).isFile()).toBe(true);
  });

  it('PostgreSQL without SECRET_KEY cannot save credentials, with a clear error', () => {
    const none = secretBoxOf({
      secretKey: undefined,
      databaseUrl: 'postgres://x/y',
      dataDir: '/nonexistent',
    });
    expect(none.available).toBe(false);
    expect(() => none.seal('a', 'c')).toThrow(SecretKeyMissing);
    expect(() => none.seal('a', 'c')).toThrow(/SECRET_KEY/);
    const withKey = secretBoxOf({ secretKey: 'k'.repeat(40), databaseUrl: 'postgres://x/y', dataDir: '/x' });
    expect(withKey.open(withKey.seal('a', 'c'), 'c')).toBe('a');
  });
});
