import { toUtcIso } from '../platform/time/zone.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';

/**
 * The customer's own links to a booking and the rules they follow (issue 16 §5: `links[]`,
 * `policy`; §1: `booking_hash_id`, `booking_page` of legacy webhook bodies).
 *
 * SEAM: the manage link comes with the booking page (issue 14, branch `widget`:
 * src/booking-page/manage-link.ts, `/book/<slug>/manage/<token>` and `.../calendar.ics`, the
 * cut-off in `workspaces.manage_cutoff_minutes`). Until that is merged no booking has a manage
 * link: `manageLinkOf` answers null, `links` is `[]` and the legacy body sends null. Wiring it
 * means returning `{ hashId: token, url }` here; every caller already handles both cases.
 */
export interface ManageLink {
  /** The token of the link: what legacy receivers read as `booking_hash_id`. */
  hashId: string;
  /** The absolute URL of the customer's manage page. */
  url: string;
}

export function manageLinkOf(_workspace: WorkspaceRow, _bookingId: string): ManageLink | null {
  return null;
}

export function bookingLinks(link: ManageLink | null): { type: 'manage' | 'ical'; link: string }[] {
  if (link === null) return [];
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
