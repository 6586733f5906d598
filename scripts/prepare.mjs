// Set-up steps shared by `npm start`, `npm test`, `npm run cli` and friends. Only Node built-ins
// here: this runs before dependencies are installed.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

/** Installs dependencies when node_modules is missing or older than package-lock.json. */
export function ensureDeps() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(installed) && newestMtime(installed) >= newestMtime(lock)) return;
  run(existsSync(lock) ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund');
}

/** Compiles TypeScript when dist/ is missing or older than the sources. */
export function ensureBuilt() {
  ensureDeps();
  const stamp = path.join(root, 'dist', '.build-stamp');
  const sources = Math.max(
    newestMtime(path.join(root, 'src')),
    newestMtime(path.join(root, 'tsconfig.json')),
    newestMtime(path.join(root, 'tsconfig.build.json')),
  );
  if (existsSync(stamp) && newestMtime(stamp) >= sources) return;
  // `npm run build` writes dist/.build-stamp when tsc succeeds.
  run('npm run --silent build');
}
