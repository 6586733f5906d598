import type { Role } from '../platform/db/schema.js';

export const ROLES: readonly Role[] = ['owner', 'admin', 'staff'];

/**
 * What each role may do in the panel. Owners run the team; owners and admins run the developer
 * settings (API keys, webhooks) and the workspace settings (Settings → Workspace, Calendar feeds);
 * staff see their workspace's home page and their own account pages only.
 */
export type Permission = 'team' | 'developers' | 'settings';

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: ['team', 'developers', 'settings'],
  admin: ['developers', 'settings'],
  staff: [],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
