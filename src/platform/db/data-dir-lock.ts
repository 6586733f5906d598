import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The embedded store allows one process at a time: two PGlite instances on one folder corrupt it.
 * A lock file with the holder's pid makes a second process stop with a clear message instead.
 */
export interface DataDirLock {
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: { pid: number; owner: string },
  ) {
    super(
      `The data directory ${dataDir} is in use by another Kairos process (${holder.owner}, pid ${holder.pid}). ` +
        'Stop it first, or use a PostgreSQL server (DATABASE_URL) to run several processes.',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Folders this process holds. A lock file naming our own pid is normally stale (a container
 * restarted with the same pid), but not while we hold it ourselves: opening one folder twice in
 * one process would run two PGlite instances on it just the same.
 */
const heldHere = new Map<string, string>();

export function acquireDataDirLock(dataDir: string, owner: string): DataDirLock {
  const key = path.resolve(dataDir);
  const heldBy = heldHere.get(key);
  if (heldBy !== undefined) throw new DataDirLockedError(dataDir, { pid: process.pid, owner: heldBy });
  const file = path.join(dataDir, 'kairos.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, JSON.stringify({ pid: process.pid, owner }), { flag: 'wx' });
      heldHere.set(key, owner);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          heldHere.delete(key);
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder && holder.pid !== process.pid && isAlive(holder.pid))
        throw new DataDirLockedError(dataDir, holder);
      // The holder died without cleaning up (e.g. SIGKILL): the lock is stale.
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

function readHolder(file: string): { pid: number; owner: string } | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; owner?: unknown };
    return typeof parsed.pid === 'number'
      ? { pid: parsed.pid, owner: String(parsed.owner ?? 'unknown') }
      : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
