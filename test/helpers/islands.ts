import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../../src/platform/db/project-root.js';

/**
 * The named islands' JavaScript, bundled in memory exactly as `npm run build` bundles them
 * (scripts/islands.mjs), so a test that weighs a page's scripts needs nothing built first.
 */
export async function bundledIslands(names: string[]): Promise<Record<string, string>> {
  const islands = (await import(pathToFileURL(path.join(projectRoot(), 'scripts', 'islands.mjs')).href)) as {
    bundleIslands(options: { names: string[] }): Promise<Record<string, string>>;
  };
  return islands.bundleIslands({ names });
}
