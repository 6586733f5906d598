import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers/build-test-app.js';
import { parseCommand } from '../cli/args.js';
import { toCliError } from '../cli/errors.js';
import { importCommand } from './imports.cli.js';
import type { ImportReport } from './imports.service.js';

/** `import <kind> --workspace S --file F [--dry-run]`: the panel's import from a shell. */
let t: TestApp;
const dir = mkdtempSync(path.join(os.tmpdir(), 'kairos-import-'));
const now = Date.parse('2026-05-04T09:00:00Z');
const cli = (args: string[]) => importCommand(t.database, args, now, {}) as Promise<ImportReport>;
const failure = (args: string[]) =>
  cli(args).then(
    () => undefined,
    (error: unknown) => toCliError(error),
  );

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('import CLI', () => {
  it('dry-runs, imports, and leaves a second import alone', async () => {
    const file = path.join(dir, 'customers.csv');
    writeFileSync(file, 'phone,first_name\n+4915133330001,Ida\n+4915133330002,Jon\nnope,Bad\n');
    const args = ['customers', '--workspace', t.workspace.slug, '--file', file];
    expect(parseCommand(['import', ...args])).toEqual({ kind: 'import', args });

    const dry = await cli([...args, '--dry-run']);
    expect(dry).toMatchObject({ ran: false, counts: { create: 2, update: 0, unchanged: 0, error: 1 } });
    const listed = async () => (await t.call('GET', '/customers?per_page=100')).json().meta.total;
    expect(await listed()).toBe(0);

    expect(await cli(args)).toMatchObject({ ran: true, counts: { create: 2, error: 1 } });
    expect(await listed()).toBe(2);
    expect(await cli(args)).toMatchObject({ ran: true, counts: { create: 0, unchanged: 2, error: 1 } });
  });

  it('refuses an unknown kind, a missing flag, an unreadable file and an unknown workspace', async () => {
    expect(await failure(['rooms', '--workspace', 'x', '--file', 'f'])).toMatchObject({ exitCode: 2 });
    expect(await failure(['customers', '--workspace', t.workspace.slug])).toMatchObject({ exitCode: 2 });
    expect(
      await failure(['customers', '--workspace', t.workspace.slug, '--file', path.join(dir, 'missing.csv')]),
    ).toMatchObject({ exitCode: 2 });
    const file = path.join(dir, 'one.csv');
    writeFileSync(file, 'phone\n+4915133330009\n');
    expect(await failure(['customers', '--workspace', 'no-such-workspace', '--file', file])).toMatchObject({
      body: { error: { code: 'not_found' } },
    });
  });
});
