import type { FieldErrors } from '../errors.js';

/** RFC 9110 token: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** Visible ASCII and spaces/tabs inside; no CR, LF or other control characters. */
const VALUE = /^[\x20-\x7e\t]*$/;

/**
 * Names a subscription may not set: what the transport owns (Host, Content-Length, framing and
 * connection headers), what describes the body (Content-Type), and the Standard Webhooks
 * headers receivers verify, which a static value must never shadow. Other names, Webhook-Token
 * included, are free.
 */
const RESERVED = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'webhook-attempt',
]);

export const MAX_HEADERS = 10;

/**
 * Validates a webhook's static headers and returns them with trimmed values, or
 * records errors by dotted key (`headers.Host`). Names keep the case they were given in.
 */
export function checkHeaders(headers: Record<string, string>, errors: FieldErrors): Record<string, string> {
  const clean: Record<string, string> = {};
  const seen = new Set<string>();
  const entries = Object.entries(headers);
  if (entries.length > MAX_HEADERS) {
    errors.headers = [`At most ${MAX_HEADERS} headers.`];
    return clean;
  }
  for (const [name, raw] of entries) {
    const lower = name.toLowerCase();
    const key = `headers.${name}`;
    if (!TOKEN.test(name)) {
      errors[key] = ["A header name is 1-64 letters, digits or !#$%&'*+.^_`|~- characters."];
    } else if (RESERVED.has(lower) || lower.startsWith('proxy-')) {
      errors[key] = [`The header ${name} is set by Kairos and cannot be overridden.`];
    } else if (seen.has(lower)) {
      errors[key] = [`The header ${name} is given twice (names are case-insensitive).`];
    } else if (typeof raw !== 'string' || !VALUE.test(raw)) {
      errors[key] = ['A header value may hold visible ASCII characters and spaces only.'];
    } else {
      seen.add(lower);
      clean[name] = raw.trim();
    }
  }
  return clean;
}
