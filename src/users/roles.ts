import type { Role } from '../platform/db/schema.js';

export const ROLES: readonly Role[] = ['owner', 'admin', 'staff'];

/**
 * What each role may do in the panel. Everyone runs the day: the calendar, bookings and customers
 * (`bookings`), as a front desk takes bookings on the phone. Owners run the team; owners and admins
 * run the business's setup (locations, services, staffers, hours, statuses, payment accounts), the
 * developer settings (API keys, webhooks), the workspace settings (Settings → Workspace, Calendar
 * feeds) and the notification settings; staff see their own account pages (their calendar feed,
 * their booking emails) besides the day's work. Owners and admins see the reports (and the money on
 * Home); staff see bookings.
 */
export type Permission =
  | 'bookings'
  | 'setup'
  | 'team'
  | 'developers'
  | 'settings'
  | 'notifications'
  | 'reports';

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: ['bookings', 'setup', 'team', 'developers', 'settings', 'notifications', 'reports'],
  admin: ['bookings', 'setup', 'developers', 'settings', 'notifications', 'reports'],
  staff: ['bookings'],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
