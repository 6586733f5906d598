import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_DIR, generatedSchema } from '../../scripts/generate-client.js';

/**
 * The typed client's types are those of the document the server serves now: a route whose
 * schema changed without `npm run client:generate` fails here (and so in CI).
 */
describe('client/schema.ts', () => {
  it('is what openapi-typescript generates from the served OpenAPI document', async () => {
    const committed = readFileSync(path.join(CLIENT_DIR, 'schema.ts'), 'utf8');
    const generated = await generatedSchema();
    expect(generated === committed, 'client/schema.ts is stale: run `npm run client:generate`').toBe(true);
  });
});
