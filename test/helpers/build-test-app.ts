import type { LightMyRequestResponse } from 'fastify';
import type { CreatedApiKey } from '../../src/api-keys/api-keys.service.js';
import { buildApp } from '../../src/app/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { InvalidationBus } from '../../src/platform/bus/invalidation-bus.js';
import type { Database, Db } from '../../src/platform/db/client.js';
import type { ApiApp, Clock } from '../../src/platform/http/types.js';
import type { WorkspaceRow } from '../../src/workspaces/workspaces.repository.js';
import { createWorkspace } from '../../src/workspaces/workspaces.service.js';
import { openWritePath } from '../../src/write-path.js';
import { openTestDatabase } from './test-db.js';

export const API = '/api/public/v2';

export interface TestApp {
  app: ApiApp;
  database: Database;
  db: Db;
  workspace: WorkspaceRow;
  apiKey: CreatedApiKey;
  /** Auth headers of the test workspace. */
  headers: Record<string, string>;
  /** Calls the API as the test workspace; `path` is relative to /api/public/v2. */
  call(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let counter = 0;

export async function buildTestApp(
  options: {
    clock?: Clock;
    database?: Database;
    slug?: string;
    config?: Partial<Config>;
    bus?: InvalidationBus;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await openTestDatabase());
  // The API rate limit is off unless a test sets it: one test file's key may make thousands of calls.
  const config: Config = { ...loadConfig({}), worker: 'off', apiRateLimitPerMinute: 0, ...options.config };
  const app = await buildApp({
    database,
    config,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.bus ? { bus: options.bus } : {}),
  });
  await app.ready();
  counter += 1;
  const { workspace, apiKey } = await createWorkspace(openWritePath(database.db).uow, {
    slug: options.slug ?? `test-${process.pid}-${counter}`,
    name: 'Test Studio',
  });
  const headers = { authorization: `Bearer ${apiKey.secret}`, workspace: workspace.slug };
  return {
    app,
    database,
    db: database.db,
    workspace,
    apiKey,
    headers,
    call(method, path, body, extraHeaders) {
      return app.inject({
        method: method as 'GET',
        url: `${API}${path}`,
        headers: { ...headers, ...extraHeaders },
        ...(body === undefined ? {} : { payload: body as object }),
      });
    },
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}

/** Another workspace in the same store, for isolation tests. */
export async function createOtherWorkspace(db: Db, slug = `other-${process.pid}-${++counter}`) {
  const { workspace, apiKey } = await createWorkspace(openWritePath(db).uow, { slug, name: 'Other Studio' });
  return {
    workspace,
    apiKey,
    headers: { authorization: `Bearer ${apiKey.secret}`, workspace: workspace.slug },
  };
}
