import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './data-dir-lock.js';

/** The lock is a file, so these run without opening a store (openDatabase takes it first). */
let dataDir: string;
const lockFile = () => path.join(dataDir, 'kairos.lock');
const holderOf = () => JSON.parse(readFileSync(lockFile(), 'utf8')) as { pid: number; owner: string };

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'kairos-lock-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** A pid that surely belongs to no process any more: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('the data-directory lock', () => {
  it('refuses a second holder while the first holds it, naming the holder', () => {
    const lock = acquireDataDirLock(dataDir, 'server');
    try {
      const error = thrownBy(() => acquireDataDirLock(dataDir, 'cli'));
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as DataDirLockedError).holder).toEqual({ pid: process.pid, owner: 'server' });
      expect((error as Error).message).toContain(dataDir);
      expect((error as Error).message).toContain('DATABASE_URL');
      // The refused attempt left the holder's lock as it was.
      expect(holderOf()).toEqual({ pid: process.pid, owner: 'server' });
    } finally {
      lock.release();
    }
  });

  it('refuses while another live process holds it', () => {
    // Our parent (the test runner) is alive and is not us.
    writeFileSync(lockFile(), JSON.stringify({ pid: process.ppid, owner: 'server' }));
    expect(() => acquireDataDirLock(dataDir, 'cli')).toThrow(DataDirLockedError);
    expect(holderOf()).toEqual({ pid: process.ppid, owner: 'server' });
  });

  it('takes over a stale lock whose process is dead', () => {
    const pid = deadPid();
    expect(pid).toBeGreaterThan(0);
    writeFileSync(lockFile(), JSON.stringify({ pid, owner: 'server' }));
    const lock = acquireDataDirLock(dataDir, 'cli');
    expect(holderOf()).toEqual({ pid: process.pid, owner: 'cli' });
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('takes over a lock file that is unreadable (e.g. cut short by a crash)', () => {
    writeFileSync(lockFile(), '{"pid":');
    acquireDataDirLock(dataDir, 'cli').release();
  });

  it('is free again once released', () => {
    acquireDataDirLock(dataDir, 'server').release();
    expect(existsSync(lockFile())).toBe(false);
    const again = acquireDataDirLock(dataDir, 'server');
    expect(holderOf().owner).toBe('server');
    again.release();
  });
});
