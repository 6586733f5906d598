// `npm start`: install, build, then run the server in this same process (so SIGTERM reaches it).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, root } from './prepare.mjs';

ensureBuilt();
await import(pathToFileURL(path.join(root, 'dist', 'src', 'main.js')).href);
