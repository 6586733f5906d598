import { runCli } from './run.js';

/** `npm run --silent cli -- <command>`: see help.ts for the output contract. */
const exitCode = await runCli(process.argv.slice(2));
process.exitCode = exitCode;
// Everything is closed by now, so the process ends by itself; should a module leave a handle
// open, the unref'd timer still ends it instead of hanging an operator's script.
setTimeout(() => process.exit(exitCode), 2_000).unref();
