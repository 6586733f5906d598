// Set-up steps shared by `npm start`, `npm test`, `npm run cli` and friends. Only Node built-ins
// here: this runs before dependencies are installed.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function run(command) {
  console.error(`> ${command}`);
  execSync(command, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}

/**
 * Installs dependencies when node_modules does not hold what package-lock.json asks for. The
 * check compares versions (npm's own record of what it installed, node_modules/.package-lock.json),
 * not file times: a checkout or a `touch` of the lock file must not trigger a 30-second `npm ci`.
 */
export function ensureDeps() {
  const lock = path.join(root, 'package-lock.json');
  if (!existsSync(lock)) {
    if (!existsSync(path.join(root, 'node_modules'))) run('npm install --no-audit --no-fund');
    return;
  }
  if (installedMatchesLock(lock, path.join(root, 'node_modules', '.package-lock.json'))) return;
  run('npm ci --no-audit --no-fund');
}

function installedMatchesLock(lockFile, installedFile) {
  if (!existsSync(installedFile)) return false;
  try {
    const wanted = JSON.parse(readFileSync(lockFile, 'utf8')).packages ?? {};
    const installed = JSON.parse(readFileSync(installedFile, 'utf8')).packages ?? {};
    for (const [key, entry] of Object.entries(wanted)) {
      if (!key.startsWith('node_modules/')) continue;
      const have = installed[key];
      // Optional packages for other platforms (e.g. @esbuild/darwin-arm64) are never installed.
      if (!have) {
        if (entry.optional) continue;
        return false;
      }
      if (have.version !== entry.version) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Installs what is missing, then compiles TypeScript when dist/ is missing or older than the sources. */
export function ensureBuilt() {
  ensureDeps();
  buildIfStale();
}

/** Compiles TypeScript when dist/ is missing or older than the sources (never installs). */
export function buildIfStale() {
  if (!isBuildStale()) return;
  // `npm run build` writes dist/.build-stamp when tsc succeeds.
  run('npm run --silent build');
}

export function isBuildStale() {
  const stamp = path.join(root, 'dist', '.build-stamp');
  const sources = Math.max(
    newestMtime(path.join(root, 'src')),
    newestMtime(path.join(root, 'tsconfig.json')),
    newestMtime(path.join(root, 'tsconfig.build.json')),
  );
  return !(existsSync(stamp) && newestMtime(stamp) >= sources);
}
