import type { FastifyRequest } from 'fastify';
import { notFound } from '../errors.js';
import type { AppDeps } from '../platform/http/types.js';
import { isUuid } from '../platform/uuid.js';

/** A uuid path parameter; anything else names nothing of this workspace: 404, like an unknown one. */
export function uuidParam(request: FastifyRequest, name: string): string {
  return uuidOrNotFound((request.params as Record<string, string | undefined>)[name]);
}

/** A uuid a form names (a select's value); anything else is a 404 like an unknown one. */
export function uuidOrNotFound(value: string | undefined): string {
  if (!value || !isUuid(value)) throw notFound();
  return value;
}

/** An absolute link to a panel path (invite links): PUBLIC_URL when set, else the Host the browser used. */
export function absoluteUrl(request: FastifyRequest, deps: AppDeps, path: string): string {
  const base = deps.config.publicUrl ?? `${request.protocol}://${request.headers.host ?? 'localhost'}`;
  return `${base.replace(/\/$/, '')}${path}`;
}
