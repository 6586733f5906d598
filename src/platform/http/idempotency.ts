import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import { claimIdempotencyKey, storeIdempotentAnswer } from '../db/idempotency-keys.repository.js';
import type { UnitOfWork } from '../db/unit-of-work.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer stored under a key that committed: sent again as it was. */
class StoredAnswer extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: string,
  ) {
    super('stored idempotent answer');
  }
}

/**
 * A write route's answer, with `Idempotency-Key` (any POST, PUT, PATCH or DELETE).
 *
 * Without a key, `write` runs on the app's unit of work and its payload is sent with `status`.
 * With a key, the key, the write and the answer (the exact bytes sent) are one transaction: the
 * request that commits first owns the key; a repeat with the same request gets that answer again
 * (header `Idempotent-Replayed: true`) and changes nothing; the same key with another request is
 * a 422. A request that did not commit — refused, failed, or its process killed — leaves no key,
 * so its retry runs at once. A repeat sent while the first is still running waits for it.
 *
 * `status` may be a function, read once `write` has run, for a write whose status depends on
 * what it did (POST /customers: 201 created, 200 found); the stored answer keeps that status.
 */
export async function answerWrite(
  request: FastifyRequest,
  reply: FastifyReply,
  uow: UnitOfWork,
  statusOf: number | (() => number),
  write: (uow: UnitOfWork) => Promise<unknown>,
): Promise<FastifyReply> {
  const statusAfterWrite = () => (typeof statusOf === 'number' ? statusOf : statusOf());
  const key = idempotencyKey(request);
  if (key === undefined) {
    const payload = await write(uow);
    return reply.status(statusAfterWrite()).send(payload);
  }
  const keyed = {
    workspaceId: request.auth.workspace.id,
    key,
    method: request.method,
    path: request.url,
    requestHash: fingerprint(request),
  };
  let answer: StoredAnswer;
  try {
    answer = await uow.runJoined(keyed.workspaceId, async (tx, unit) => {
      const claim = await claimIdempotencyKey(tx, keyed);
      if (!claim.claimed) {
        if (claim.requestHash !== keyed.requestHash) throw keyReused();
        // Thrown, not returned: the claim statement's transaction ends without writing anything.
        throw new StoredAnswer(claim.statusCode, claim.body);
      }
      const payload = await write(unit);
      const status = statusAfterWrite();
      reply.status(status);
      const body = payload === undefined ? '' : String(reply.serialize(payload));
      await storeIdempotentAnswer(tx, keyed, { statusCode: status, body });
      return new StoredAnswer(status, body);
    });
  } catch (error) {
    if (!(error instanceof StoredAnswer)) throw error;
    reply.header('idempotent-replayed', 'true');
    answer = error;
  }
  reply.status(answer.statusCode);
  if (answer.body === '') return reply.send();
  return reply.header('content-type', JSON_TYPE).send(answer.body);
}

function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > 255) {
    throw new AppError(422, 'validation_failed', 'The given data was invalid.', {
      'Idempotency-Key': ['The Idempotency-Key header must be 1-255 characters.'],
    });
  }
  return key;
}

function keyReused(): AppError {
  return new AppError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was used with a different request.',
    {
      'Idempotency-Key': ['This Idempotency-Key was used with a different request.'],
    },
  );
}

/** Method, path and body: "the same request" for the key. */
function fingerprint(request: FastifyRequest): string {
  return createHash('sha256')
    .update(`${request.method} ${request.url}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
}
