import { XMLParser } from 'fast-xml-parser';
import { type DavHttpOptions, type DavResponse, davRequest } from './caldav-http.js';
import {
  type CalendarProvider,
  CalendarProviderError,
  type ChangedObject,
  type ChangeSet,
  type RemoteCalendar,
  type WrittenObject,
} from './calendar-provider.js';

export interface CaldavOptions extends DavHttpOptions {
  /** What the staffer typed: the server's address, a principal, or a calendar home. */
  serverUrl: string;
}

/** How many objects one calendar-multiget asks for. */
const MULTIGET_BATCH = 500;

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'response' || name === 'propstat' || name === 'comp',
});

type XmlNode = Record<string, unknown>;

interface DavEntry {
  href: string;
  /** The status of the response itself (sync-collection's removed members answer 404 here). */
  status: number | null;
  /** Properties found (200 propstat). */
  props: XmlNode;
}

function statusOf(text: unknown): number | null {
  const match = /HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(String(text ?? ''));
  return match ? Number(match[1]) : null;
}

function text(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string') return node;
  if (typeof node === 'object' && '#text' in (node as XmlNode)) return String((node as XmlNode)['#text']);
  return '';
}

/** A multistatus answer's entries; throws 'invalid' when the body is not one. */
function multistatus(response: DavResponse): { entries: DavEntry[]; syncToken: string | null } {
  let doc: XmlNode;
  try {
    doc = parser.parse(response.body) as XmlNode;
  } catch (error) {
    throw new CalendarProviderError('invalid', `Unreadable WebDAV answer: ${(error as Error).message}`);
  }
  const root = doc.multistatus as XmlNode | undefined;
  if (!root || typeof root !== 'object')
    throw new CalendarProviderError('invalid', `Not a WebDAV answer from ${response.url}`);
  const entries: DavEntry[] = [];
  for (const r of (root.response as XmlNode[] | undefined) ?? []) {
    const props: XmlNode = {};
    for (const ps of (r.propstat as XmlNode[] | undefined) ?? []) {
      if (statusOf(ps.status) === 200 && ps.prop && typeof ps.prop === 'object')
        Object.assign(props, ps.prop);
    }
    entries.push({ href: text(r.href), status: statusOf(r.status), props });
  }
  return { entries, syncToken: root['sync-token'] === undefined ? null : text(root['sync-token']) };
}

function checkStatus(response: DavResponse, what: string): void {
  if (response.status === 401 || response.status === 403) {
    throw new CalendarProviderError(
      'refused',
      `The calendar server refused ${what} (${response.status})`,
      response.status,
    );
  }
  if (response.status === 412) {
    throw new CalendarProviderError('precondition', `The object changed meanwhile (${what}: 412)`, 412);
  }
  if (response.status >= 500 || response.status === 408 || response.status === 429) {
    throw new CalendarProviderError(
      'unreachable',
      `The calendar server failed ${what} (${response.status})`,
      response.status,
    );
  }
  if (response.status < 200 || response.status >= 300) {
    throw new CalendarProviderError(
      'invalid',
      `Unexpected answer to ${what} (${response.status})`,
      response.status,
    );
  }
}

const PROPFIND = (props: string) =>
  `<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ic="http://apple.com/ns/ical/"><d:prop>${props}</d:prop></d:propfind>`;

const XML = { 'content-type': 'application/xml; charset=utf-8' };

function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]};`,
  );
}

/**
 * CalDAV (RFC 4791) over the SSRF-guarded client: discovery (RFC 6764 /.well-known/caldav,
 * current-user-principal, calendar-home-set, the home's calendars), changes by sync-collection
 * (RFC 6578) falling back to CTag + ETag comparison, objects fetched by calendar-multiget, and
 * writes with ETag preconditions.
 */
export function caldavProvider(options: CaldavOptions): CalendarProvider {
  const request = (method: string, url: string, body?: string, headers: Record<string, string> = {}) =>
    davRequest(
      { method, url, ...(body === undefined ? {} : { body }), headers: { ...XML, ...headers } },
      options,
    );

  async function propfind(
    url: string,
    depth: '0' | '1',
    props: string,
  ): Promise<{ entries: DavEntry[]; url: string }> {
    const response = await request('PROPFIND', url, PROPFIND(props), { depth });
    checkStatus(response, 'PROPFIND');
    return { entries: multistatus(response).entries, url: response.url };
  }

  function hrefOf(node: unknown): string | null {
    if (!node || typeof node !== 'object') return null;
    const href = (node as XmlNode).href;
    const value = Array.isArray(href) ? href[0] : href;
    const t = text(value);
    return t === '' ? null : t;
  }

  async function calendarHome(): Promise<string> {
    const start = new URL(options.serverUrl);
    // Ask the address given first (it may be a principal or the home itself), then the
    // well-known address of its host.
    const candidates = [start.toString()];
    if (start.pathname === '/' || start.pathname === '')
      candidates.unshift(new URL('/.well-known/caldav', start).toString());
    else candidates.push(new URL('/.well-known/caldav', start).toString());
    let lastError: unknown = null;
    for (const candidate of candidates) {
      try {
        const found = await propfind(
          candidate,
          '0',
          '<d:current-user-principal/><c:calendar-home-set/><d:resourcetype/>',
        );
        const props = found.entries[0]?.props ?? {};
        const home = hrefOf(props['calendar-home-set']);
        if (home) return new URL(home, found.url).toString();
        const principal = hrefOf(props['current-user-principal']);
        if (principal) {
          const p = await propfind(new URL(principal, found.url).toString(), '0', '<c:calendar-home-set/>');
          const h = hrefOf(p.entries[0]?.props['calendar-home-set']);
          if (h) return new URL(h, p.url).toString();
        }
      } catch (error) {
        if (error instanceof CalendarProviderError && error.kind !== 'invalid') throw error;
        lastError = error;
      }
    }
    throw new CalendarProviderError(
      'invalid',
      `No CalDAV calendar home found at ${options.serverUrl}${lastError ? ` (${(lastError as Error).message})` : ''}`,
    );
  }

  async function multiget(calendarUrl: string, hrefs: string[]): Promise<ChangedObject[]> {
    const out: ChangedObject[] = [];
    for (let i = 0; i < hrefs.length; i += MULTIGET_BATCH) {
      const batch = hrefs.slice(i, i + MULTIGET_BATCH);
      const body = `<?xml version="1.0" encoding="utf-8"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>${batch
        .map((href) => `<d:href>${escapeXml(new URL(href).pathname)}</d:href>`)
        .join('')}</c:calendar-multiget>`;
      const response = await request('REPORT', calendarUrl, body, { depth: '1' });
      checkStatus(response, 'calendar-multiget');
      for (const entry of multistatus(response).entries) {
        const ics = text(entry.props['calendar-data']);
        if (ics === '') continue;
        out.push({
          href: new URL(entry.href, calendarUrl).toString(),
          etag: text(entry.props.getetag) || null,
          ics,
        });
      }
    }
    return out;
  }

  async function syncCollection(
    calendarUrl: string,
    token: string,
  ): Promise<
    | { changed: { href: string; etag: string | null }[]; removed: string[]; token: string | null }
    | 'unsupported'
    | 'expired'
  > {
    const body = `<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>${escapeXml(token)}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;
    const response = await request('REPORT', calendarUrl, body);
    if (response.status === 401) checkStatus(response, 'sync-collection');
    // RFC 6578 §3.2: an unknown token answers 403/409 with DAV:valid-sync-token.
    if ((response.status === 403 || response.status === 409) && /valid-sync-token/.test(response.body))
      return 'expired';
    if ([400, 403, 405, 415, 501].includes(response.status)) return 'unsupported';
    checkStatus(response, 'sync-collection');
    const { entries, syncToken } = multistatus(response);
    const changed: { href: string; etag: string | null }[] = [];
    const removed: string[] = [];
    const base = new URL(calendarUrl).pathname;
    for (const entry of entries) {
      const href = new URL(entry.href, calendarUrl).toString();
      if (new URL(href).pathname === base) continue;
      if (entry.status === 404) removed.push(href);
      else changed.push({ href, etag: text(entry.props.getetag) || null });
    }
    return { changed, removed, token: syncToken };
  }

  return {
    async listCalendars(): Promise<RemoteCalendar[]> {
      const home = await calendarHome();
      const { entries, url } = await propfind(
        home,
        '1',
        '<d:resourcetype/><d:displayname/><ic:calendar-color/><c:supported-calendar-component-set/>',
      );
      const calendars: RemoteCalendar[] = [];
      for (const entry of entries) {
        const type = entry.props.resourcetype as XmlNode | undefined;
        if (!type || typeof type !== 'object' || !('calendar' in type)) continue;
        const set = entry.props['supported-calendar-component-set'] as XmlNode | undefined;
        const comps = (set?.comp as XmlNode[] | undefined)?.map((c) => String(c['@_name']).toUpperCase());
        const href = new URL(entry.href, url).toString();
        calendars.push({
          url: href,
          name:
            text(entry.props.displayname) ||
            decodeURIComponent(new URL(href).pathname.split('/').filter(Boolean).pop() ?? href),
          color: text(entry.props['calendar-color']) || null,
          events: comps === undefined || comps.includes('VEVENT'),
        });
      }
      return calendars;
    },

    async changes(calendarUrl, state, known): Promise<ChangeSet> {
      // 1. sync-collection from the token we hold (or from the empty token: everything).
      const sync = await syncCollection(calendarUrl, state?.syncToken ?? '');
      if (sync === 'expired') {
        return this.changes(calendarUrl, null, known);
      }
      if (sync !== 'unsupported') {
        const full = !state?.syncToken;
        const fetched = await multiget(
          calendarUrl,
          sync.changed
            .filter((c) => full || known.get(c.href) !== c.etag || c.etag === null)
            .map((c) => c.href),
        );
        return {
          state: { syncToken: sync.token, ctag: null },
          full,
          changed: fetched,
          removed: sync.removed,
          method: 'sync-collection',
        };
      }
      // 2. Fallback: CTag says whether anything changed; ETags say what.
      const collection = await propfind(calendarUrl, '0', '<cs:getctag/>');
      const ctag = text(collection.entries[0]?.props.getctag) || null;
      if (ctag !== null && state?.ctag === ctag) {
        return {
          state: { syncToken: null, ctag },
          full: false,
          changed: [],
          removed: [],
          method: 'unchanged',
        };
      }
      const members = await propfind(calendarUrl, '1', '<d:getetag/>');
      const base = new URL(calendarUrl).pathname;
      const now = new Map<string, string | null>();
      for (const entry of members.entries) {
        const href = new URL(entry.href, calendarUrl).toString();
        if (new URL(href).pathname === base) continue;
        now.set(href, text(entry.props.getetag) || null);
      }
      const changedHrefs = [...now]
        .filter(([href, etag]) => etag === null || known.get(href) !== etag)
        .map(([h]) => h);
      const removed = [...known.keys()].filter((href) => !now.has(href));
      return {
        state: { syncToken: null, ctag },
        full: false,
        changed: await multiget(calendarUrl, changedHrefs),
        removed,
        method: 'ctag-etag',
      };
    },

    async put(objectUrl, ics, etag): Promise<WrittenObject> {
      const response = await davRequest(
        {
          method: 'PUT',
          url: objectUrl,
          body: ics,
          headers: {
            'content-type': 'text/calendar; charset=utf-8',
            ...(etag ? { 'if-match': etag } : { 'if-none-match': '*' }),
          },
        },
        options,
      );
      checkStatus(response, 'PUT');
      const newEtag = typeof response.headers.etag === 'string' ? response.headers.etag : null;
      return { href: objectUrl, etag: newEtag };
    },

    async remove(objectUrl, etag): Promise<void> {
      const response = await davRequest(
        { method: 'DELETE', url: objectUrl, headers: etag ? { 'if-match': etag } : {} },
        options,
      );
      if (response.status === 404 || response.status === 410) return;
      checkStatus(response, 'DELETE');
    },

    async get(objectUrl): Promise<ChangedObject | null> {
      const response = await davRequest({ method: 'GET', url: objectUrl }, options);
      if (response.status === 404 || response.status === 410) return null;
      checkStatus(response, 'GET');
      return {
        href: objectUrl,
        etag: typeof response.headers.etag === 'string' ? response.headers.etag : null,
        ics: response.body,
      };
    },
  };
}
