import { adminQuery } from './test-db.js';

/** On PostgreSQL the extension lives in `public`, shared by the per-file schemas. */
export default async function setup(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  await adminQuery(url, 'CREATE EXTENSION IF NOT EXISTS btree_gist');
}
