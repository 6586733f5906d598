// Run by `npm run build` after tsc: every island bundled into dist/public/islands/.
import path from 'node:path';
import { bundleIslands } from './islands.mjs';
import { root } from './prepare.mjs';

await bundleIslands({ outdir: path.join(root, 'dist', 'public', 'islands') });
