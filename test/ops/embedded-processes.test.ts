import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureServerBuilt, ROOT, ServerProcess } from '../helpers/server-process.js';
import { cliError, heldRequest, runCliProcess, snapshotFiles } from './process-helpers.js';

/**
 * `npm start` and the CLI as real processes (dist/) on one embedded store in a temp DATA_DIR,
 * in the order an operator meets them: first start, CLI while the server runs, SIGTERM, CLI on
 * the stopped store, second start. The tests of this file build on each other's state.
 *
 * Skipped when TEST_DATABASE_URL is set: everything here is about the embedded store in DATA_DIR,
 * so the PostgreSQL pass of CI would repeat the very same run.
 */
const API = '/api/public/v2';
const SECRET = /^secret_[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let dataDir: string;
const servers: ServerProcess[] = [];
let base: string;
let demo: { slug: string; key: string };
const headersOf = (slug: string, key: string) => ({ authorization: `Bearer ${key}`, workspace: slug });
const lockFile = () => path.join(dataDir, 'kairos.lock');

async function api(path: string, headers: Record<string, string>) {
  const response = await fetch(`${base}${API}${path}`, { headers });
  return {
    status: response.status,
    body: (await response.json()) as { data?: unknown } & Record<string, unknown>,
  };
}

async function cli(...args: string[]) {
  return runCliProcess(dataDir, args);
}

function cliJson(result: { code: number | null; stdout: string; stderr: string }) {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('the embedded store, as processes', () => {
  beforeAll(async () => {
    await ensureServerBuilt();
    dataDir = mkdtempSync(path.join(tmpdir(), 'kairos-ops-'));
  }, 300_000);

  afterAll(async () => {
    // A failed test must not leave a server behind.
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('first start: creates the demo workspace, prints its slug and key once, and the key works', async () => {
    const server = new ServerProcess({ dataDir }, { worker: 'on', logLevel: 'info' });
    servers.push(server);
    base = await server.baseUrl();
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(base).not.toMatch(/:0$/);
    const [, slug] = await server.waitForOutput(/Workspace: +(\S+)\n/);
    const [, key] = await server.waitForOutput(/API key: +(\S+)\n/);
    expect(key).toMatch(SECRET);
    demo = { slug: slug!, key: key! };
    expect(server.stdout).toContain(`${base}${API}`);
    expect(server.stdout).toContain(`${base}/docs`);

    const ping = await api('/ping', headersOf(demo.slug, demo.key));
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ ping: 'pong' });
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    const locations = await api('/locations', headersOf(demo.slug, demo.key));
    expect(locations.body.data).toHaveLength(2);
  });

  it('a CLI command while the server holds DATA_DIR stops with the lock message and touches nothing', async () => {
    const server = servers[0]!;
    // The server itself writes to its store now and then (the VACUUM/ANALYZE pass of
    // pglite-maintenance.ts, 2 s after start, then each minute): wait until the folder is still.
    // Still means unchanged for 3 s: longer than the pass's own writes are apart, and the next
    // pass is a minute away.
    let before = snapshotFiles(dataDir);
    for (let still = 0, tries = 0; still < 6 && tries < 80; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = snapshotFiles(dataDir);
      still = JSON.stringify(now) === JSON.stringify(before) ? still + 1 : 0;
      before = now;
    }
    const result = await cli('key', 'list', '--workspace', demo.slug);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const error = cliError(result);
    expect(error.code).toBe('data_dir_locked');
    expect(error.message).toContain(dataDir);
    expect(error.message).toContain(`pid ${server.pid}`);
    expect(snapshotFiles(dataDir)).toEqual(before);
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toEqual({ pid: server.pid, owner: 'server' });
    expect((await fetch(`${base}/health`)).status).toBe(200);
  }, 90_000);

  it('SIGTERM: in-flight requests complete, then the process exits 0 and releases DATA_DIR', async () => {
    const server = servers[0]!;
    const headers = headersOf(demo.slug, demo.key);
    const [location] = (await api('/locations', headers)).body.data as { uuid: string }[];
    const reads = Array.from({ length: 6 }, () => heldRequest(base, 'GET', `${API}/locations`, headers));
    // This one's body is held back until shutdown has begun, so it is surely in flight then.
    const write = heldRequest(base, 'PATCH', `${API}/locations/${location!.uuid}`, headers, {
      description: 'Changed during shutdown',
    });
    await Promise.all([...reads, write].map((request) => request.accepted));

    server.child.kill('SIGTERM');
    await server.waitForOutput(/"msg":"shutting down"/);
    write.finish();

    for (const read of reads) {
      const response = await read.response;
      expect(response.status).toBe(200);
      expect(JSON.parse(response.body).data).toHaveLength(2);
    }
    const written = await write.response;
    expect(written.status, written.body).toBe(200);
    expect(JSON.parse(written.body).data.description).toBe('Changed during shutdown');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(lockFile())).toBe(false);
  });

  let created: {
    workspace: { uuid: string; slug: string; name: string };
    api_key: { uuid: string; secret: string };
  };
  let zapier: { uuid: string; name: string; secret: string };

  it('CLI: workspace create [--demo] prints the workspace and its first key', async () => {
    created = cliJson(
      await cli(
        'workspace',
        'create',
        '--slug',
        'cli-studio',
        '--name',
        'CLI Studio',
        '--currency',
        'USD',
        '--demo',
      ),
    );
    expect(Object.keys(created).sort()).toEqual(['api_key', 'workspace']);
    expect(Object.keys(created.workspace).sort()).toEqual(['name', 'slug', 'uuid']);
    expect(Object.keys(created.api_key).sort()).toEqual(['name', 'secret', 'uuid']);
    expect(created.workspace).toMatchObject({ slug: 'cli-studio', name: 'CLI Studio' });
    expect(created.workspace.uuid).toMatch(UUID);
    expect(created.api_key.uuid).toMatch(UUID);
    expect(created.api_key.secret).toMatch(SECRET);

    const taken = await cli('workspace', 'create', '--slug', 'cli-studio', '--name', 'Again');
    expect(taken.code).toBe(1);
    expect(taken.stdout).toBe('');
    expect(cliError(taken)).toMatchObject({
      code: 'validation_failed',
      errors: { slug: [expect.any(String)] },
    });
  });

  it('CLI: key create, key list and key delete', async () => {
    ({ api_key: zapier } = cliJson(
      await cli('key', 'create', '--workspace', 'cli-studio', '--name', 'Zapier'),
    ));
    expect(Object.keys(zapier).sort()).toEqual(['name', 'secret', 'uuid']);
    expect(zapier.name).toBe('Zapier');
    expect(zapier.secret).toMatch(SECRET);

    const list = cliJson(await cli('key', 'list', '--workspace', 'cli-studio')) as {
      data: Record<string, string>[];
    };
    expect(list.data.map((key) => key.uuid).sort()).toEqual([created.api_key.uuid, zapier.uuid].sort());
    for (const key of list.data) {
      expect(Object.keys(key).sort()).toEqual(['created_at', 'name', 'secret_hint', 'uuid']);
      expect(Number.isNaN(Date.parse(key.created_at!))).toBe(false);
    }
    const hint = list.data.find((key) => key.uuid === zapier.uuid)!.secret_hint!;
    expect(zapier.secret.endsWith(hint.slice(-4))).toBe(true);
    expect(JSON.stringify(list)).not.toContain(zapier.secret);

    const deleted = cliJson(await cli('key', 'delete', '--workspace', 'cli-studio', '--uuid', zapier.uuid));
    expect(deleted).toEqual({ deleted: true, uuid: zapier.uuid });
  });

  it('CLI: unknown workspace exits 1 (not_found), a missing flag exits 2 (usage)', async () => {
    const unknown = await cli('key', 'list', '--workspace', 'no-such-studio');
    expect(unknown.code).toBe(1);
    expect(cliError(unknown).code).toBe('not_found');
    const missing = await cli('key', 'create', '--workspace', 'cli-studio');
    expect(missing.code).toBe(2);
    expect(cliError(missing)).toMatchObject({ code: 'usage', message: expect.stringContaining('--name') });
  });

  it('CLI: webhook subcommands are handed to the webhook module', async (context) => {
    if (!existsSync(path.join(ROOT, 'dist', 'src', 'webhooks', 'webhooks.cli.js'))) {
      context.skip('src/webhooks/webhooks.cli.ts does not exist yet');
    }
    const list = await cli('webhook', 'list', '--workspace', 'cli-studio');
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).not.toHaveProperty('error');
    const unknown = await cli('webhook', 'frobnicate');
    expect(unknown.code).toBe(2);
    expect(cliError(unknown).code).toBe('usage');
  });

  it('second start: no new key, the data is still there, and the CLI-deleted key fails with 403', async () => {
    const server = new ServerProcess({ dataDir }, { worker: 'on', logLevel: 'info' });
    servers.push(server);
    base = await server.baseUrl();

    const locations = await api('/locations', headersOf(demo.slug, demo.key));
    expect(locations.status).toBe(200);
    expect((locations.body.data as { description: string }[]).map((l) => l.description)).toContain(
      'Changed during shutdown',
    );
    const revoked = await api('/ping', headersOf('cli-studio', zapier.secret));
    expect(revoked).toEqual({
      status: 403,
      body: { message: 'Bearer token is invalid', code: 'invalid_token' },
    });
    const kept = headersOf('cli-studio', created.api_key.secret);
    expect((await api('/workspace', kept)).body.data).toMatchObject({ slug: 'cli-studio', currency: 'USD' });
    expect((await api('/locations', kept)).body.data).toHaveLength(2);

    expect(await server.stop()).toEqual({ code: 0, signal: null });
    expect(server.stdout).toContain(`${base}${API}`);
    expect(server.stdout).not.toContain('API key:');
    expect(server.stdout).not.toContain(demo.key);
    expect(existsSync(lockFile())).toBe(false);
  });
});
