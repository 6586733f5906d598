import { PANEL_PREFIX } from '../../panel-kit/layout.js';

/**
 * Where the panel's staff pages are and how a staffer is named there: the staffers' pages and
 * the schedules' hours page, which sits under a staffer, share them.
 */
export const STAFFERS = `${PANEL_PREFIX}/setup/staffers`;

export const fullName = (staffer: { first_name: string; last_name: string }) =>
  `${staffer.first_name} ${staffer.last_name}`.trim();
