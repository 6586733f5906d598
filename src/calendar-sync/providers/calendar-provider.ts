/**
 * CalendarProvider: the one interface the calendar sync talks to. CalDAV (caldav-provider.ts) is
 * the first provider; Google Calendar and Microsoft 365 come later behind the same interface (their
 * own discovery, change feeds and write calls, mapped onto these shapes).
 */

export interface RemoteCalendar {
  /** Absolute URL of the collection. */
  url: string;
  name: string;
  color: string | null;
  /** False when the collection does not hold VEVENTs (a task list). */
  events: boolean;
}

/** What the provider kept about a calendar after a sync, handed back on the next one. */
export interface SyncState {
  /** RFC 6578 sync token, when the server has sync-collection. */
  syncToken: string | null;
  /** The collection's CTag (calendarserver.org getctag), the fallback's "anything changed?". */
  ctag: string | null;
}

export interface ChangedObject {
  /** Absolute URL of the calendar object. */
  href: string;
  etag: string | null;
  ics: string;
}

export interface ChangeSet {
  state: SyncState;
  /** True when this is the whole calendar (first sync, or a token the server no longer knows): objects not listed are gone. */
  full: boolean;
  changed: ChangedObject[];
  removed: string[];
  /** How the changes were asked: 'sync-collection', 'ctag-etag', or 'unchanged' (CTag equal). */
  method: 'sync-collection' | 'ctag-etag' | 'unchanged';
}

export interface WrittenObject {
  href: string;
  etag: string | null;
}

export interface CalendarProvider {
  /** Calendars the account can see (discovery from the address given). */
  listCalendars(): Promise<RemoteCalendar[]>;
  /**
   * Changes of one calendar since `state` (null = first sync). `known` maps the object URLs the
   * store holds to their ETags, for servers without sync-collection.
   */
  changes(
    calendarUrl: string,
    state: SyncState | null,
    known: ReadonlyMap<string, string | null>,
  ): Promise<ChangeSet>;
  /** Creates (etag null: If-None-Match: *) or replaces (If-Match: etag) one object. */
  put(objectUrl: string, ics: string, etag: string | null): Promise<WrittenObject>;
  /** Deletes one object (If-Match: etag when known); an object already gone is not an error. */
  remove(objectUrl: string, etag: string | null): Promise<void>;
  /** One object as it is now; null when gone. */
  get(objectUrl: string): Promise<ChangedObject | null>;
}

export type CalendarFailureKind = 'unreachable' | 'refused' | 'precondition' | 'invalid';

/**
 * A provider call that did not succeed: `unreachable` (network, timeout, 5xx, SSRF guard),
 * `refused` (401/403: the credentials), `precondition` (412: the object changed meanwhile),
 * `invalid` (an answer we cannot read, or an address that is not a calendar server).
 */
export class CalendarProviderError extends Error {
  constructor(
    readonly kind: CalendarFailureKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'CalendarProviderError';
  }
}
