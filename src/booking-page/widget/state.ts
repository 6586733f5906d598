import type { Lang } from '../../platform/i18n.js';
import type { Messages } from '../i18n.js';

/**
 * What the customer has chosen so far, carried in the URL's query (every step is a real URL:
 * back, reload and deep links work; nothing lives in a cookie or a session).
 */
export interface PageState {
  location?: string | undefined;
  service?: string | undefined;
  /** A staffer uuid, or 'any'. */
  staffer?: string | undefined;
  /** First day shown on the slot step (YYYY-MM-DD in the customer's zone). */
  from?: string | undefined;
  /** The day whose slots are listed; alone (no `from`), it also picks the 7 days shown. */
  date?: string | undefined;
  /** The month the "pick a date" table shows (YYYY-MM); present while paging through months. */
  month?: string | undefined;
  /** The chosen slot's start, UTC ISO 8601. */
  at?: string | undefined;
  tz?: string | undefined;
  lang?: string | undefined;
  /** '1' inside the embed iframe. */
  embed?: string | undefined;
  /** Where the customer came from (`?ref=` of a shared link), kept with the booking for reports. */
  ref?: string | undefined;
}

export const STATE_KEYS = [
  'location',
  'service',
  'staffer',
  'from',
  'date',
  'month',
  'at',
  'tz',
  'lang',
  'embed',
  'ref',
] as const;

/** Reads the state from a query or a form body; anything not a short plain string is dropped. */
export function readState(source: unknown): PageState {
  const state: PageState = {};
  if (typeof source !== 'object' || source === null) return state;
  for (const key of STATE_KEYS) {
    const raw = (source as Record<string, unknown>)[key];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === 'string' && value.length > 0 && value.length <= 64 && /^[\w:+./-]+$/.test(value)) {
      state[key] = value;
    }
  }
  return state;
}

/** The page URL of `state` with `changes` applied (undefined removes a key). */
export function pageHref(slug: string, state: PageState, changes: PageState = {}, path = ''): string {
  const merged: Record<string, string | undefined> = { ...state, ...changes };
  const query = new URLSearchParams();
  for (const key of STATE_KEYS) {
    const value = merged[key];
    if (value !== undefined) query.set(key, value);
  }
  const text = query.toString();
  return `/book/${encodeURIComponent(slug)}${path}${text ? `?${text}` : ''}`;
}

/** What a page component needs besides its data. */
export interface PageContext {
  slug: string;
  workspaceName: string;
  state: PageState;
  lang: Lang;
  /** The writing direction of the language: Arabic is laid out right to left. */
  dir: 'ltr' | 'rtl';
  /**
   * The path of this page when it was a GET (a manage page, a step), for the language form to
   * come back to; undefined after a POST, whose page has no URL of its own.
   */
  path?: string | undefined;
  /** Arrows toward the start (back, earlier) and the end (later) of the reading direction. */
  arrow: { back: string; forward: string };
  t: Messages;
  /** Intl locale (workspace locale when it is of this language). */
  locale: string;
  /** The zone times are shown in. */
  zone: string;
  nonce: string;
  embedOrigins: string[];
}
