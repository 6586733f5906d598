import { sql } from 'kysely';
import type { Db } from '../platform/db/client.js';

export interface FailureCounts {
  webhooks: number;
  emails: number;
  texts: number;
}

/**
 * What failed for good since `since`: webhook deliveries that ran out of attempts, emails and
 * texts the worker gave up on or the carrier refused. One statement by workspace_id, each count
 * on its partial index of failures.
 */
export async function failuresSince(db: Db, workspaceId: string, since: Date): Promise<FailureCounts> {
  const ws = workspaceId;
  const result = await sql<FailureCounts>`
    SELECT
      (SELECT count(*) FROM webhook_deliveries
        WHERE workspace_id = ${ws} AND state = 'failed' AND updated_at >= ${since}::timestamptz)::int AS webhooks,
      (SELECT count(*) FROM mail_messages
        WHERE workspace_id = ${ws} AND state = 'failed' AND updated_at >= ${since}::timestamptz)::int AS emails,
      (SELECT count(*) FROM text_messages
        WHERE workspace_id = ${ws} AND state IN ('failed', 'undelivered')
          AND updated_at >= ${since}::timestamptz)::int AS texts`.execute(db);
  return result.rows[0] ?? { webhooks: 0, emails: 0, texts: 0 };
}
