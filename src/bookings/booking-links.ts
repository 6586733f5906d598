import { toUtcIso } from '../platform/time/zone.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import { manageToken } from './manage-link.js';

/**
 * The customer's own links to a booking and the rules they follow (a booking's `links[]`,
 * `policy`; `booking_hash_id`, `booking_page` of legacy webhook bodies).
 *
 * The manage link is the booking page's (src/bookings/manage-link.ts): `/book/<slug>/manage/
 * <token>`, the token signed with the workspace's secret, so it is made again whenever a booking
 * is presented and never stored. `base` is the app's link base (src/config.ts publicBaseUrl:
 * PUBLIC_URL, else the address the server listens on).
 */
export interface ManageLink {
  /** The token of the link: what legacy receivers read as `booking_hash_id`. */
  hashId: string;
  /** The absolute URL of the customer's manage page. */
  url: string;
}

export function manageLinkOf(workspace: WorkspaceRow, bookingId: string, base: string): ManageLink {
  const hashId = manageToken(workspace, bookingId);
  return { hashId, url: `${base}${manageLinkPath(workspace.slug, hashId)}` };
}

/** The path of a manage link; its `.ics` download is this path plus `/calendar.ics`. */
export function manageLinkPath(slug: string, token: string): string {
  return `/book/${encodeURIComponent(slug)}/manage/${token}`;
}

/** `links[]` of a booking answer: its manage page and the calendar file that page offers. */
export function bookingLinks(link: ManageLink): { type: 'manage' | 'ical'; link: string }[] {
  return [
    { type: 'manage', link: link.url },
    { type: 'ical', link: `${link.url}/calendar.ics` },
  ];
}

/** The booking page's default (migration 0008 on `widget`): 24 hours before the start. */
const DEFAULT_CUTOFF_MINUTES = 1440;

/**
 * Until when the customer may cancel or reschedule through the manage link. API keys are not
 * bound by it. Reads the workspace's `manage_cutoff_minutes` once that column exists.
 */
export function bookingPolicy(workspace: WorkspaceRow, startMs: number) {
  const setting = (workspace as { manage_cutoff_minutes?: unknown }).manage_cutoff_minutes;
  const cutoff = typeof setting === 'number' ? setting : DEFAULT_CUTOFF_MINUTES;
  const until = toUtcIso(startMs - cutoff * 60_000);
  return {
    cancel_cutoff_minutes: cutoff,
    cancel_until: until,
    reschedule_cutoff_minutes: cutoff,
    reschedule_until: until,
  };
}
