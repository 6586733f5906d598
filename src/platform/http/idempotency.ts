import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.js';
import {
  claimIdempotencyKey,
  type IdempotentRequest,
  type KeyAnswer,
  storeIdempotentAnswer,
} from '../db/idempotency-keys.repository.js';
import type { UnitOfWork } from '../db/unit-of-work.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** The answer stored under a key that committed: sent again as it was. */
class StoredAnswer extends Error {
  constructor(readonly answer: KeyAnswer) {
    super('stored idempotent answer');
  }
}

/**
 * The one idempotency mechanism, for the API's `Idempotency-Key` header and the hidden key of a
 * panel or booking-page form alike: the key, the write and its answer are one transaction. The
 * request that commits first owns the key; a repeat of the same request gets that answer again
 * (`replayed`) and changes nothing; the same key with another request is a 422. A request that
 * did not commit — refused, failed, or its process killed — leaves no key, so its retry runs at
 * once. A repeat sent while the first is still running waits for it on the key's row (its
 * primary key), not on a timer.
 */
export async function writeOnce(
  uow: UnitOfWork,
  keyed: IdempotentRequest,
  write: (uow: UnitOfWork) => Promise<KeyAnswer>,
): Promise<{ answer: KeyAnswer; replayed: boolean }> {
  try {
    const answer = await uow.runJoined(keyed.workspaceId, async (tx, unit) => {
      const claim = await claimIdempotencyKey(tx, keyed);
      if (!claim.claimed) {
        if (claim.requestHash !== keyed.requestHash) throw keyReused();
        // Thrown, not returned: the claim statement's transaction ends without writing anything.
        throw new StoredAnswer(claim);
      }
      const answer = await write(unit);
      await storeIdempotentAnswer(tx, keyed, answer);
      return answer;
    });
    return { answer, replayed: false };
  } catch (error) {
    if (!(error instanceof StoredAnswer)) throw error;
    return { answer: error.answer, replayed: true };
  }
}

/**
 * A write route's answer, with `Idempotency-Key` (any POST, PUT, PATCH or DELETE): `writeOnce`
 * with the method, path and body as "the same request", and the exact bytes sent as the answer
 * (a replay carries the header `Idempotent-Replayed: true`).
 *
 * Without a key, `write` runs on the app's unit of work and its payload is sent with `status`.
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
  const { answer, replayed } = await writeOnce(
    uow,
    {
      workspaceId: request.auth.workspace.id,
      key,
      method: request.method,
      path: request.url,
      requestHash: fingerprint(request),
    },
    async (unit) => {
      const payload = await write(unit);
      const status = statusAfterWrite();
      reply.status(status);
      const body = payload === undefined ? '' : String(reply.serialize(payload));
      return { statusCode: status, body, location: null };
    },
  );
  if (replayed) reply.header('idempotent-replayed', 'true');
  reply.status(answer.statusCode);
  if (answer.body === '') return reply.send();
  return reply.header('content-type', JSON_TYPE).send(answer.body);
}

/**
 * A form's POST (panel or booking page) that creates or changes something: `write` makes the
 * change and names the page to redirect to (303). With the form's hidden key (`FORM_KEY_FIELD`,
 * rendered by `FormKey`), this is `writeOnce`: a double click or a resubmit of the same form gets
 * the first submit's redirect and changes nothing. "The same request" is the same form (method
 * and path), whatever its fields: the key is minted when the form is rendered, so it names one
 * filled-in form, and a browser resubmitting it may have re-solved a challenge or re-ordered
 * fields. A form without a key (an old page, a script) runs as a plain write.
 *
 * `write`'s errors roll the key back with the change, so the route renders them as it would
 * without a key, and the form may be sent again with the same key.
 */
export async function redirectOnce(
  request: FastifyRequest,
  reply: FastifyReply,
  uow: UnitOfWork,
  workspaceId: string,
  write: (uow: UnitOfWork) => Promise<string>,
): Promise<FastifyReply> {
  const key = formKeyOf(request.body);
  if (key === undefined) return reply.redirect(await write(uow), 303);
  const { answer, replayed } = await writeOnce(uow, keyedForm(request, workspaceId, key), async (unit) => ({
    statusCode: 303,
    body: '',
    location: await write(unit),
  }));
  if (replayed) reply.header('idempotent-replayed', 'true');
  return reply.redirect(answer.location ?? '/', answer.statusCode);
}

/**
 * A form's POST whose answer shows a one-time secret (a new API key, a webhook's signing secret,
 * an invite link): `redirectOnce`'s key, but the key row never holds the secret, since only a
 * hash of it is stored anywhere. The first submit's answer is `show(result)`, rendered from what
 * `write` returned; a repeat of the same form is redirected to `repeatLocation(result)` (a page
 * saying it was already done, without the secret) and creates nothing more. A person who lost the first
 * answer creates another secret and removes the unseen one, as they would after closing the page.
 */
export async function showSecretOnce<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  uow: UnitOfWork,
  workspaceId: string,
  write: (uow: UnitOfWork) => Promise<T>,
  repeatLocation: (result: T) => string,
  show: (result: T) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const key = formKeyOf(request.body);
  if (key === undefined) return show(await write(uow));
  let written: { result: T } | undefined;
  const { answer, replayed } = await writeOnce(uow, keyedForm(request, workspaceId, key), async (unit) => {
    const result = await write(unit);
    written = { result };
    return { statusCode: 303, body: '', location: repeatLocation(result) };
  });
  if (!replayed && written) return show(written.result);
  reply.header('idempotent-replayed', 'true');
  return reply.redirect(answer.location ?? '/', answer.statusCode);
}

/** "The same request" for a form's key: the same form (method and path), whatever its fields. */
function keyedForm(request: FastifyRequest, workspaceId: string, key: string): IdempotentRequest {
  const form = `${request.method} ${request.url}`;
  return {
    workspaceId,
    key,
    method: request.method,
    path: request.url,
    requestHash: createHash('sha256').update(form).digest('hex'),
  };
}

/** The hidden field of a form's idempotency key. */
export const FORM_KEY_FIELD = 'idempotency_key';

/** A new key for one rendered form: 144 random bits, URL-safe. */
export function newFormKey(): string {
  return randomBytes(18).toString('base64url');
}

function formKeyOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const raw = (body as Record<string, unknown>)[FORM_KEY_FIELD];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') return undefined;
  if (typeof key !== 'string' || key.length > 255) throw keyInvalid(FORM_KEY_FIELD, 'The form key');
  return key;
}

function idempotencyKey(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > 255) throw keyInvalid('Idempotency-Key', 'The Idempotency-Key header');
  return key;
}

function keyInvalid(field: string, what: string): AppError {
  return new AppError(422, 'validation_failed', 'The given data was invalid.', {
    [field]: [`${what} must be 1-255 characters.`],
  });
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
