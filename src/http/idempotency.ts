import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/client.js';
import { AppError } from '../errors.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Keys live this long (issue: 24 hours). */
const KEY_TTL = '24 hours';
/** A claim without a stored answer this old belongs to a request that died; it may be retried. */
const ABANDONED_AFTER = '60 seconds';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey?: string;
  }
}

/**
 * `Idempotency-Key` on any POST, PUT, PATCH or DELETE: the first request with a key runs and its
 * answer is stored; a repeat with the same key and the same request gets that answer again
 * (header `Idempotent-Replayed: true`) and changes nothing; the same key with another request is
 * a 422. Answers of 5xx are not stored, so such a request can be retried with its key.
 */
export function registerIdempotency(app: FastifyInstance, db: Db): void {
  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (!MUTATING.has(request.method) || header === undefined) return;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key || key.length > 255) {
      throw new AppError(422, 'validation_failed', 'The given data was invalid.', {
        'Idempotency-Key': ['The Idempotency-Key header must be 1-255 characters.'],
      });
    }
    const workspaceId = request.auth.workspace.id;
    const requestHash = fingerprint(request);
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({
        workspace_id: workspaceId,
        key,
        method: request.method,
        path: request.url,
        request_hash: requestHash,
      })
      .onConflict((oc) =>
        oc
          .columns(['workspace_id', 'key'])
          .doUpdateSet({
            method: request.method,
            path: request.url,
            request_hash: requestHash,
            status_code: null,
            response_body: null,
            created_at: sql`now()`,
          })
          .where(({ eb, or }) =>
            or([
              eb('idempotency_keys.created_at', '<', sql<Date>`now() - ${KEY_TTL}::interval`),
              eb.and([
                eb('idempotency_keys.status_code', 'is', null),
                eb('idempotency_keys.created_at', '<', sql<Date>`now() - ${ABANDONED_AFTER}::interval`),
                eb('idempotency_keys.request_hash', '=', requestHash),
              ]),
            ]),
          ),
      )
      .returning('key')
      .executeTakeFirst();
    if (claimed) {
      request.idempotencyKey = key;
      return;
    }
    const stored = await db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'status_code', 'response_body'])
      .where('workspace_id', '=', workspaceId)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    if (stored.request_hash !== requestHash) {
      throw new AppError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request.',
        {
          'Idempotency-Key': ['This Idempotency-Key was used with a different request.'],
        },
      );
    }
    if (stored.status_code === null) {
      throw new AppError(
        409,
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still in progress.',
      );
    }
    return reply
      .status(stored.status_code)
      .header('idempotent-replayed', 'true')
      .header('content-type', 'application/json; charset=utf-8')
      .send(
        typeof stored.response_body === 'string'
          ? stored.response_body
          : JSON.stringify(stored.response_body),
      );
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (key === undefined) return payload;
    const workspaceId = request.auth.workspace.id;
    if (reply.statusCode >= 500) {
      await db
        .deleteFrom('idempotency_keys')
        .where('workspace_id', '=', workspaceId)
        .where('key', '=', key)
        .execute();
      return payload;
    }
    await db
      .updateTable('idempotency_keys')
      // Stored as a JSON string value, not as the object: jsonb would reorder the object's keys,
      // and a replay must be the same bytes as the first answer.
      .set({
        status_code: reply.statusCode,
        response_body: JSON.stringify(typeof payload === 'string' ? payload : 'null'),
      })
      .where('workspace_id', '=', workspaceId)
      .where('key', '=', key)
      .execute();
    return payload;
  });
}

/** Method, path and body: "the same request" for the key. */
function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}
