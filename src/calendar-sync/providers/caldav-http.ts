import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  guardedLookup,
  hostOf,
  isPublicAddress,
  parseWebhookUrl,
  TargetRefusedError,
} from '../../webhooks/ssrf-guard.js';
import { CalendarProviderError } from './calendar-provider.js';

export interface DavRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface DavResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The URL that answered (after redirects). */
  url: string;
}

export interface DavHttpOptions {
  username: string;
  password: string;
  timeoutMs: number;
  /** The webhooks' allowance (WEBHOOKS_ALLOW_PRIVATE): loopback and private addresses pass the guard. */
  allowPrivate: boolean;
  /** Bound on an answer's size (a full calendar of 20,000 events is some tens of MB). */
  maxBytes?: number;
}

const MAX_REDIRECTS = 5;
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/**
 * One WebDAV exchange through the webhooks' SSRF guard: the address dialled is the address
 * checked (guardedLookup), IP literals are checked here. Redirects are followed (discovery needs
 * /.well-known/caldav's), each hop through the same guard, keeping method and body, at most
 * MAX_REDIRECTS. The whole exchange is bounded by timeoutMs. Network failures, the guard and
 * timeouts throw CalendarProviderError('unreachable'); any HTTP answer is returned.
 */
export async function davRequest(request: DavRequest, options: DavHttpOptions): Promise<DavResponse> {
  let url = request.url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await once({ ...request, url }, options);
    if (response.status >= 300 && response.status < 400 && response.headers.location) {
      url = new URL(response.headers.location, url).toString();
      continue;
    }
    return response;
  }
  throw new CalendarProviderError('invalid', `Too many redirects from ${request.url}`);
}

function once(request: DavRequest, options: DavHttpOptions): Promise<DavResponse> {
  const parsed = parseWebhookUrl(request.url);
  if (!(parsed instanceof URL)) return Promise.reject(new CalendarProviderError('invalid', parsed.message));
  const host = hostOf(parsed);
  if (isIP(host) && !options.allowPrivate && !isPublicAddress(host)) {
    return Promise.reject(new CalendarProviderError('unreachable', new TargetRefusedError().message));
  }
  const client = parsed.protocol === 'https:' ? https : http;
  const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  const auth = Buffer.from(`${options.username}:${options.password}`, 'utf8').toString('base64');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      reject(new CalendarProviderError('unreachable', message));
    };
    const req = client.request(
      parsed,
      {
        method: request.method,
        lookup: guardedLookup(options.allowPrivate),
        headers: {
          authorization: `Basic ${auth}`,
          'user-agent': 'Kairos calendar sync',
          ...(body ? { 'content-length': String(body.length) } : {}),
          ...request.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) fail(`Answer larger than ${maxBytes} bytes`);
          else chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            url: request.url,
          });
        });
        res.on('error', (error) => fail(error.message));
        res.on('aborted', () => fail('The server closed the connection mid-answer'));
      },
    );
    const timer = setTimeout(() => fail(`No answer within ${options.timeoutMs} ms`), options.timeoutMs);
    req.on('error', (error) => fail(error instanceof TargetRefusedError ? error.message : error.message));
    req.end(body);
  });
}
