// The island bundles: small Preact components that hydrate one part of a server-rendered page,
// each minified on its own with no shared runtime chunk. `npm run build` writes them into
// dist/public/islands/ (build-islands.mjs); a test bundles one in memory to weigh it.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { root } from './prepare.mjs';

/** Every island (src/**\/islands/*.island.tsx) by its bundle name. */
export function islandEntryPoints() {
  const found = {};
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.name.endsWith('.island.tsx') && path.basename(dir) === 'islands')
        found[path.basename(full, '.island.tsx')] = full;
    }
  };
  visit(path.join(root, 'src'));
  return found;
}

/**
 * Bundles the named islands (all when `names` is absent) into `outdir`, or in memory when
 * `outdir` is absent: then the answer maps each name to its JavaScript.
 */
export async function bundleIslands({ names, outdir } = {}) {
  const all = islandEntryPoints();
  const entryPoints = names ? Object.fromEntries(names.map((name) => [name, all[name]])) : all;
  const result = await build({
    entryPoints,
    outdir: outdir ?? path.join(root, 'dist', 'public', 'islands'),
    write: outdir !== undefined,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
  return Object.fromEntries(
    (result.outputFiles ?? []).map((file) => [path.basename(file.path, '.js'), file.text]),
  );
}
