import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CLI_ACTOR } from '../audit/audit.service.js';
import { loadConfig, publicBaseUrl } from '../config.js';
import { notFound, UsageError } from '../errors.js';
import type { Database } from '../platform/db/client.js';
import { findWorkspaceBySlug } from '../workspaces/workspaces.repository.js';
import { openWritePath } from '../write-path.js';
import { IMPORT_KINDS, isImportKind } from './import-rows.rules.js';
import { previewImport, runImport } from './imports.service.js';

const USAGE = `import ${IMPORT_KINDS.join('|')} --workspace <slug> --file <path.csv> [--dry-run]`;

/**
 * `npm run --silent cli -- import <kind> --workspace S --file F [--dry-run]`
 * (docs/import-export.md): the panel's import from a shell. `--dry-run` is the preview: what
 * each row would do, nothing written. The answer is the report, one entry per row.
 */
export async function importCommand(
  database: Database,
  args: string[],
  now: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<unknown> {
  const [kind, ...rest] = args;
  if (kind === undefined || kind === 'help' || args.includes('--help') || args.includes('-h')) {
    return { commands: [USAGE] };
  }
  if (!isImportKind(kind)) throw new UsageError(`Unknown import "${kind}". Usage: ${USAGE}`);
  let values: { workspace?: string; file?: string; 'dry-run'?: boolean };
  try {
    values = parseArgs({
      args: rest,
      options: { workspace: { type: 'string' }, file: { type: 'string' }, 'dry-run': { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split('\n')[0]} (in "import ${kind}").`);
  }
  if (values.workspace === undefined || values.file === undefined) {
    throw new UsageError(`"import ${kind}" needs --workspace and --file.`);
  }
  let text: string;
  try {
    text = readFileSync(values.file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${values.file}: ${(error as Error).message}`);
  }
  const db = database.db;
  const workspace = await findWorkspaceBySlug(db, values.workspace);
  if (!workspace) throw notFound('Workspace');
  const ctx = {
    workspace,
    actor: CLI_ACTOR,
    now,
    linkBase: publicBaseUrl(loadConfig(env)),
    db,
    uow: openWritePath(db).uow,
  };
  return values['dry-run'] ? previewImport(ctx, kind, text) : runImport(ctx, kind, text);
}
