// Run by `npm run build` after tsc: each entry point (server, worker, CLI) becomes one bundle in
// the place tsc wrote it, its imports (ours and most packages') inlined, with the code they
// share in dist/src/chunks/. A process then loads a handful of files instead of ~1,500 modules:
// the server's imports took ~1.5 s of CPU, most of a restart's time to answer /health.
// Packages that read files beside their own code (PGlite's WebAssembly and data files,
// swagger-ui's and @fastify/static's assets, pino's worker transports) stay imported from
// node_modules, as does the optional native pg driver that is not installed.
import path from 'node:path';
import { build } from 'esbuild';
import { root } from './prepare.mjs';

const dist = path.join(root, 'dist', 'src');
const ENTRIES = ['main.js', 'worker-main.js', path.join('cli', 'main.js')];

await build({
  entryPoints: ENTRIES.map((entry) => path.join(dist, entry)),
  outdir: dist,
  outbase: dist,
  allowOverwrite: true,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  external: [
    '@electric-sql/pglite',
    '@electric-sql/pglite/*',
    '@fastify/swagger-ui',
    '@fastify/static',
    'pino',
    'pg-native',
  ],
  // Bundled CommonJS packages call require(); in an ES module it comes from createRequire.
  banner: {
    js: "import { createRequire as __kairosRequire } from 'node:module';\nconst require = __kairosRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
