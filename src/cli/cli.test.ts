import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { UsageError } from '../errors.js';
import { DataDirLockedError } from '../platform/db/data-dir-lock.js';
import { parseCommand } from './args.js';
import { executeCommand } from './commands.js';
import { toCliError } from './errors.js';
import { HELP } from './help.js';
import { runCli } from './run.js';

/**
 * The CLI in-process: argument parsing, the output contract, and each command on the test store
 * (PGlite, or PostgreSQL with TEST_DATABASE_URL). test/ops/embedded-processes.test.ts runs the
 * built CLI as a process.
 */

function captureIo() {
  const io = { out: '', err: '' };
  return {
    io,
    sink: {
      stdout: (text: string) => {
        io.out += text;
      },
      stderr: (text: string) => {
        io.err += text;
      },
    },
  };
}
const lastLine = (text: string) => JSON.parse(text.trim().split('\n').pop()!);

describe('parseCommand', () => {
  it('reads each command and its flags', () => {
    expect(parseCommand(['workspace', 'create', '--slug', 'a-b', '--name=Studio', '--demo'])).toEqual({
      kind: 'workspace-create',
      slug: 'a-b',
      name: 'Studio',
      currency: undefined,
      locale: undefined,
      demo: true,
    });
    expect(parseCommand(['key', 'delete', '--uuid', 'u', '--workspace', 's'])).toEqual({
      kind: 'key-delete',
      workspace: 's',
      uuid: 'u',
    });
    expect(parseCommand(['webhook', 'list', '--workspace', 's'])).toEqual({
      kind: 'webhook',
      args: ['list', '--workspace', 's'],
    });
    for (const argv of [['--help'], ['help'], ['-h'], ['key', 'create', '--help']]) {
      expect(parseCommand(argv)).toEqual({ kind: 'help' });
    }
  });

  const usage: [string, string[], RegExp][] = [
    ['no command', [], /No command/],
    ['an unknown command', ['frobnicate'], /Unknown command "frobnicate"/],
    ['an unknown subcommand', ['key', 'rotate'], /Unknown command "key rotate"/],
    ['a missing subcommand', ['key'], /needs a subcommand/],
    ['missing required flags, all named', ['workspace', 'create'], /--slug, --name/],
    ['an unknown flag', ['key', 'list', '--workspace', 's', '--all'], /--all/],
    ['a flag without its value', ['key', 'list', '--workspace'], /--workspace/],
    ['a stray positional argument', ['key', 'list', 'extra', '--workspace', 's'], /extra/],
  ];
  for (const [name, argv, message] of usage) {
    it(`refuses ${name} with a usage error`, () => {
      expect(() => parseCommand(argv)).toThrow(UsageError);
      expect(() => parseCommand(argv)).toThrow(message);
    });
  }
});

describe('runCli without a store', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'kairos-cli-')), 'never-created');
  });
  afterAll(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  it('--help prints the help text on stdout and exits 0', async () => {
    const { io, sink } = captureIo();
    expect(await runCli(['--help'], { DATA_DIR: dataDir }, sink)).toBe(0);
    expect(io.out).toBe(HELP);
    expect(io.err).toBe('');
  });

  it('a bad command line exits 2 with a JSON error on stderr, before opening the store', async () => {
    const { io, sink } = captureIo();
    expect(await runCli(['key', 'list'], { DATA_DIR: dataDir }, sink)).toBe(2);
    expect(io.out).toBe('');
    expect(lastLine(io.err)).toEqual({
      error: { code: 'usage', message: expect.stringContaining('--workspace') },
    });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('imports every command module statically: no dynamic import, no file-exists lookup', () => {
    for (const file of readdirSync(import.meta.dirname).filter((name) => !name.endsWith('.test.ts'))) {
      const source = readFileSync(path.join(import.meta.dirname, file), 'utf8');
      expect(source, file).not.toMatch(/\bimport\(|existsSync/);
    }
    expect(readFileSync(path.join(import.meta.dirname, 'run.ts'), 'utf8')).toMatch(
      /import \{ webhookCommand \} from '\.\.\/webhooks\/webhooks\.cli\.js'/,
    );
  });
});

describe('toCliError', () => {
  it('maps the data-dir lock, typed errors and surprises to stable codes', () => {
    const locked = toCliError(new DataDirLockedError('/srv/data', { pid: 42, owner: 'server' }));
    expect(locked.exitCode).toBe(1);
    expect(locked.body.error.code).toBe('data_dir_locked');
    expect(locked.body.error.message).toContain('/srv/data');
    expect(toCliError(new UsageError('x')).exitCode).toBe(2);
    expect(toCliError(new Error('disk full')).body).toEqual({
      error: { code: 'internal_error', message: 'disk full' },
    });
  });
});

interface CommandOutput {
  workspace: { uuid: string; slug: string; name: string };
  api_key: { uuid: string; name: string; secret: string };
  data: Record<string, string>[];
}

describe('the commands on a store', () => {
  let t: TestApp;
  const now = Date.parse('2026-05-04T09:00:00Z');
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  const run = (argv: string[]) => {
    const command = parseCommand(argv);
    if (
      command.kind === 'help' ||
      command.kind === 'webhook' ||
      command.kind === 'user' ||
      command.kind === 'calendar-feed' ||
      command.kind === 'import' ||
      command.kind === 'db-migrate' ||
      command.kind === 'db-distribute'
    ) {
      throw new Error('not a store command');
    }
    return executeCommand(t.database, command, now) as Promise<CommandOutput>;
  };
  const failure = async (argv: string[]) => {
    try {
      await run(argv);
    } catch (error) {
      return toCliError(error);
    }
    throw new Error('expected the command to fail');
  };

  it('workspace create: the workspace and its first key, exactly', async () => {
    const result = await run([
      'workspace',
      'create',
      '--slug',
      'cli-a',
      '--name',
      ' Studio A ',
      '--locale',
      'de-DE',
    ]);
    expect(result).toEqual({
      workspace: { uuid: expect.any(String), slug: 'cli-a', name: 'Studio A' },
      api_key: { uuid: expect.any(String), name: 'default', secret: expect.stringMatching(/^secret_/) },
    });
    const row = await t.db
      .selectFrom('workspaces')
      .selectAll()
      .where('slug', '=', 'cli-a')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ locale: 'de-DE', currency: 'EUR' });
    // Without --demo the workspace has no locations.
    const locations = await t.db
      .selectFrom('locations')
      .select('id')
      .where('workspace_id', '=', row.id)
      .execute();
    expect(locations).toEqual([]);
  });

  it('workspace create --demo fills the workspace', async () => {
    const result = await run(['workspace', 'create', '--slug', 'cli-demo', '--name', 'Demo', '--demo']);
    const locations = await t.db
      .selectFrom('locations')
      .select('name')
      .where('workspace_id', '=', result.workspace.uuid)
      .execute();
    expect(locations).toHaveLength(2);
  });

  it('workspace create refuses a taken slug and bad values as validation errors (exit 1)', async () => {
    const taken = await failure(['workspace', 'create', '--slug', 'cli-a', '--name', 'Again']);
    expect(taken.exitCode).toBe(1);
    expect(taken.body.error).toMatchObject({
      code: 'validation_failed',
      errors: { slug: [expect.any(String)] },
    });
    const bad = await failure(['workspace', 'create', '--slug=Bad_Slug', '--name', '', '--currency', 'euro']);
    expect(Object.keys(bad.body.error.errors ?? {}).sort()).toEqual(['currency', 'name', 'slug']);
    const locale = await failure([
      'workspace',
      'create',
      '--slug',
      'cli-b',
      '--name',
      'B',
      '--locale',
      'not a locale',
    ]);
    expect(locale.body.error.errors).toHaveProperty('locale');
  });

  it('workspace create refuses what PATCH /workspace refuses: locale xx, currency ABC', async () => {
    const bad = await failure([
      'workspace',
      'create',
      '--slug',
      'cli-c',
      '--name',
      'C',
      '--locale',
      'xx',
      '--currency',
      'ABC',
    ]);
    expect(Object.keys(bad.body.error.errors ?? {}).sort()).toEqual(['currency', 'locale']);
    const api = await t.call('PATCH', '/workspace', { locale: 'xx', currency: 'ABC' });
    expect(api.statusCode).toBe(422);
    // The same validator, so the same messages.
    expect(api.json().errors).toEqual(bad.body.error.errors);
    const good = await run([
      'workspace',
      'create',
      '--slug',
      'cli-c',
      '--name',
      'C',
      '--locale',
      'de-de',
      '--currency',
      'CHF',
    ]);
    const row = await t.db
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', good.workspace.uuid)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ locale: 'de-DE', currency: 'CHF' });
  });

  it('key create, list and delete; a deleted key fails with 403 on the next request', async () => {
    const { api_key: key } = await run([
      'key',
      'create',
      '--workspace',
      t.workspace.slug,
      '--name',
      'Zapier',
    ]);
    expect(key).toEqual({
      uuid: expect.any(String),
      name: 'Zapier',
      secret: expect.stringMatching(/^secret_/),
    });
    const headers = { authorization: `Bearer ${key.secret}`, workspace: t.workspace.slug };
    const ping = () => t.app.inject({ method: 'GET', url: '/api/public/v2/ping', headers });
    expect((await ping()).statusCode).toBe(200);

    const list = await run(['key', 'list', '--workspace', t.workspace.slug]);
    expect(list.data.map((k) => k.name)).toEqual(['default', 'Zapier']);
    expect(Object.keys(list.data[1]!).sort()).toEqual(['created_at', 'name', 'secret_hint', 'uuid']);

    const uuid = key.uuid;
    expect(await run(['key', 'delete', '--workspace', t.workspace.slug, '--uuid', uuid])).toEqual({
      deleted: true,
      uuid,
    });
    expect((await ping()).statusCode).toBe(403);
    const again = await failure(['key', 'delete', '--workspace', t.workspace.slug, '--uuid', uuid]);
    expect(again.body.error.code).toBe('not_found');
  });

  it('names no key of another workspace, and no workspace that does not exist (not_found, exit 1)', async () => {
    const { api_key: key } = await run(['key', 'create', '--workspace', 'cli-a', '--name', 'Theirs']);
    const other = await failure(['key', 'delete', '--workspace', t.workspace.slug, '--uuid', key.uuid]);
    expect(other.body.error.code).toBe('not_found');
    const malformed = await failure(['key', 'delete', '--workspace', t.workspace.slug, '--uuid', 'nope']);
    expect(malformed.body.error.code).toBe('not_found');
    const unknown = await failure(['key', 'list', '--workspace', 'no-such-workspace']);
    expect(unknown).toEqual({
      exitCode: 1,
      body: { error: { code: 'not_found', message: expect.stringContaining('no-such-workspace') } },
    });
  });
});
