import { sql } from 'kysely';
import type { Tx } from './unit-of-work.js';

/** Keys live this long; after that the key may be used for a new request. */
const KEY_TTL_MS = 24 * 3_600_000;

export interface IdempotentRequest {
  workspaceId: string;
  key: string;
  method: string;
  path: string;
  requestHash: string;
}

/** What the request that holds a key answered: a body (the API) or a redirect (a form). */
export interface KeyAnswer {
  statusCode: number;
  body: string;
  location: string | null;
}

export type KeyClaim = { claimed: true } | ({ claimed: false; requestHash: string } & KeyAnswer);

/**
 * Takes the key inside the write's transaction. The row is visible to others only once that
 * transaction commits, with its answer; a second request with the same key waits here on the
 * primary key until the first commits (it then gets the stored answer) or rolls back (it then
 * takes the key itself). So a request that never committed leaves no key behind.
 */
export async function claimIdempotencyKey(tx: Tx, request: IdempotentRequest): Promise<KeyClaim> {
  const claimed = await tx
    .insertInto('idempotency_keys')
    .values({
      workspace_id: request.workspaceId,
      key: request.key,
      method: request.method,
      path: request.path,
      request_hash: request.requestHash,
    })
    .onConflict((oc) =>
      oc
        .columns(['workspace_id', 'key'])
        .doUpdateSet({
          method: request.method,
          path: request.path,
          request_hash: request.requestHash,
          status_code: null,
          response_body: null,
          response_location: null,
          // The proposed row's created_at (its default, now()) rather than now() itself: Citus
          // refuses functions in an upsert's DO UPDATE clause.
          created_at: sql`excluded.created_at`,
        })
        // An expired key is free again. The cut-off is a bound value: Citus refuses functions and
        // operators that are not IMMUTABLE (timestamptz - interval is not) in an upsert's WHERE.
        // The real clock, not a request's: created_at is stamped by the database's.
        .where('idempotency_keys.created_at', '<', new Date(Date.now() - KEY_TTL_MS)),
    )
    .returning('key')
    .executeTakeFirst();
  if (claimed) return { claimed: true };
  const stored = await tx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response_body', 'response_location'])
    .where('workspace_id', '=', request.workspaceId)
    .where('key', '=', request.key)
    .executeTakeFirstOrThrow();
  return {
    claimed: false,
    requestHash: stored.request_hash,
    // Every committed row has its answer: it is written in the transaction that inserted the row.
    statusCode: stored.status_code!,
    body: stored.response_body ?? '',
    location: stored.response_location,
  };
}

/** The answer of the request that holds the key, in the same transaction as its write. */
export async function storeIdempotentAnswer(
  tx: Tx,
  request: Pick<IdempotentRequest, 'workspaceId' | 'key'>,
  answer: KeyAnswer,
): Promise<void> {
  await tx
    .updateTable('idempotency_keys')
    .set({ status_code: answer.statusCode, response_body: answer.body, response_location: answer.location })
    .where('workspace_id', '=', request.workspaceId)
    .where('key', '=', request.key)
    .execute();
}
