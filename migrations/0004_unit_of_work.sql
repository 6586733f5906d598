-- Cached slot answers are invalidated per workspace (DESIGN §8: no global counter): a write in one
-- workspace bumps only its own row, after its transaction committed, on whichever process made it.
-- A row appears with the workspace's first write; no row reads as version 0.
CREATE TABLE availability_versions (
  workspace_id uuid PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
  version      bigint NOT NULL
);
DROP SEQUENCE availability_version;

-- The idempotency answer is stored in the transaction of the write itself (src/platform/db/
-- unit-of-work.ts): the body as the exact text that was sent, so a replay is the same bytes.
-- Rows of the old claim-then-answer scheme without an answer belong to requests that never
-- finished; they hold no answer worth keeping.
DELETE FROM idempotency_keys WHERE status_code IS NULL;
ALTER TABLE idempotency_keys ALTER COLUMN response_body TYPE text USING response_body #>> '{}';
