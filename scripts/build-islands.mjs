// Bundles every island (src/**/islands/*.island.tsx) for the browser into dist/public/islands/.
// Run by `npm run build` after tsc; islands are small Preact components that hydrate one part of a
// server-rendered page (DESIGN §5), so each bundle is minified and has no shared runtime chunk.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { root } from './prepare.mjs';

function findIslands(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...findIslands(full));
    else if (entry.name.endsWith('.island.tsx') && path.basename(dir) === 'islands') found.push(full);
  }
  return found;
}

const entryPoints = Object.fromEntries(
  findIslands(path.join(root, 'src')).map((file) => [path.basename(file, '.island.tsx'), file]),
);
await build({
  entryPoints,
  outdir: path.join(root, 'dist', 'public', 'islands'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
