import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from './platform/db/project-root.js';

const pkg = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string };

/** Our own release, as GET /ping reports it: `v<major>.<minor>.<patch>`. */
export const RELEASE_VERSION = `v${pkg.version}`;
