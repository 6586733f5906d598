/**
 * The bench drives the BUILT server (dist/), as `npm start` runs it, so it also loads store code
 * from dist/ (the same bytes the server child runs, whatever the sources are doing meanwhile).
 * Types come from the sources: dist/ has no declaration files.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** BENCH_DIST=<a dist folder of another build> measures that build instead (before/after a fix). */
export const DIST_SRC = path.join(
  process.env.BENCH_DIST ? path.resolve(process.env.BENCH_DIST) : path.join(ROOT, 'dist'),
  'src',
);

async function fromDist<T>(relative: string): Promise<T> {
  return (await import(pathToFileURL(path.join(DIST_SRC, relative)).href)) as T;
}

export const loadClient = () =>
  fromDist<typeof import('../src/platform/db/client.js')>('platform/db/client.js');
export const loadMigrate = () =>
  fromDist<typeof import('../src/platform/db/migrate.js')>('platform/db/migrate.js');
export const loadWorkspaces = () =>
  fromDist<typeof import('../src/workspaces/workspaces.service.js')>('workspaces/workspaces.service.js');
export const loadApp = () => fromDist<typeof import('../src/app/app.js')>('app/app.js');
export const loadConfig = () => fromDist<typeof import('../src/config.js')>('config.js');

/**
 * The V8 flags `npm start` gives the server (package.json "start": `node <flags> scripts/start.mjs`),
 * so the bench's server child runs with the same heap settings as a real one.
 */
export function serverNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = manifest.scripts.start.split(/\s+/);
  if (words[0] !== 'node') throw new Error(`unexpected start script: ${manifest.scripts.start}`);
  return words.slice(1).filter((word) => word.startsWith('--'));
}
export const loadWritePath = () => fromDist<typeof import('../src/write-path.js')>('write-path.js');
