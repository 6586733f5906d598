import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { RELEASE_VERSION } from '../version.js';
import {
  guardedLookup,
  hostOf,
  isPublicAddress,
  parseWebhookUrl,
  type Resolver,
  TargetRefusedError,
} from './ssrf-guard.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** The DNS resolver behind the guard; dns.lookup unless a test stands in for DNS. */
  resolve?: Resolver;
}

export interface SendResult {
  /** 2xx. */
  ok: boolean;
  /** null when no response came (refused, timeout, DNS, SSRF guard). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The raw Retry-After header, if the receiver sent one. */
  retryAfter: string | undefined;
  /** The start of the response body (the panel's deliveries log shows it); absent without a response. */
  responseExcerpt?: string | undefined;
}

/** How much of a receiver's answer is kept for the deliveries log. */
export const RESPONSE_EXCERPT_BYTES = 512;

/**
 * One POST to a receiver. Redirects are never followed (a 3xx is a failure: following one could
 * lead past the SSRF guard), the whole exchange is bounded by `timeoutMs`, and the response body
 * is drained, its first RESPONSE_EXCERPT_BYTES kept for the log. Never throws: every outcome is a SendResult.
 */
export function sendWebhook(request: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (error: string): SendResult => ({
    ok: false,
    statusCode: null,
    durationMs: elapsed(),
    error,
    retryAfter: undefined,
  });

  const url = parseWebhookUrl(request.url);
  if (!(url instanceof URL)) return Promise.resolve(failure(url.message));
  const host = hostOf(url);
  // IP literals never go through `lookup`, so the guard checks them here.
  if (!request.allowPrivate && isIP(host) && !isPublicAddress(host)) {
    return Promise.resolve(failure(new TargetRefusedError().message));
  }

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const settle = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const transport = url.protocol === 'https:' ? https : http;
    const body = Buffer.from(request.body, 'utf8');
    const outgoing = transport.request(url, {
      method: 'POST',
      // A fresh connection each time: a pooled socket would skip the guarded lookup.
      agent: false,
      lookup: guardedLookup(request.allowPrivate, request.resolve),
      headers: {
        ...request.headers,
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': `Kairos-Webhooks/${RELEASE_VERSION}`,
      },
    });
    // Bounds the whole exchange, response body included; a receiver that never answers is cut off.
    // Once the status is in, the outcome is fixed: a body that is slow to end only shortens the excerpt.
    let answered: (() => void) | undefined;
    const deadline = setTimeout(() => {
      if (answered) answered();
      else settle(failure(`Timed out after ${request.timeoutMs} ms.`));
      outgoing.destroy();
    }, request.timeoutMs);
    outgoing.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const retryAfter = response.headers['retry-after'];
      const ok = status >= 200 && status < 300;
      let error: string | null = null;
      if (status >= 300 && status < 400) {
        error = `Redirect not followed (HTTP ${status}${response.headers.location ? ` to ${response.headers.location}` : ''}).`;
      } else if (!ok) {
        error = `HTTP ${status}.`;
      }
      const result = {
        ok,
        statusCode: status,
        durationMs: elapsed(),
        error,
        retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      };
      // The status decides the outcome; the body only adds its first bytes for the log.
      const chunks: Buffer[] = [];
      let kept = 0;
      const finish = () => {
        clearTimeout(deadline);
        const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
        settle({ ...result, responseExcerpt: excerpt });
      };
      answered = finish;
      response.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_EXCERPT_BYTES) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      response.on('error', finish);
      response.on('end', finish);
      response.on('close', finish);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      settle(failure(describeError(error)));
    });
    outgoing.on('close', () => {
      if (!settled) {
        clearTimeout(deadline);
        settle(failure('Connection closed without a response.'));
      }
    });
    outgoing.end(body);
  });
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error instanceof TargetRefusedError) return error.message;
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'Connection refused.';
    case 'ECONNRESET':
      return 'Connection reset by the receiver.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The url host could not be resolved.';
    default:
      return error.code ? `${error.code}: ${error.message}` : error.message;
  }
}
