import type { Role } from '../platform/db/schema.js';

export const ROLES: readonly Role[] = ['owner', 'admin', 'staff'];

/**
 * What each role may do in the panel. Owners run the team; owners and admins run the developer
 * settings (API keys, webhooks), the workspace settings (Settings → Workspace, Calendar feeds) and
 * the notification settings; staff see their workspace's home page and their own account pages
 * (their calendar feed, their booking emails) only.
 */
export type Permission = 'team' | 'developers' | 'settings' | 'notifications';

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: ['team', 'developers', 'settings', 'notifications'],
  admin: ['developers', 'settings', 'notifications'],
  staff: [],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
