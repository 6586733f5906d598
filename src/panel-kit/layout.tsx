import type { ComponentChildren } from 'preact';
import type { Role } from '../platform/db/schema.js';
import { can } from '../users/roles.js';
import type { PanelSession } from '../users/sessions.service.js';
import { Csrf } from './forms.js';
import { type PanelKey, usePanelText } from './i18n.js';

export const PANEL_PREFIX = '/panel';

export interface MembershipOption {
  workspace_id: string;
  name: string;
  slug: string;
  role: Role;
}

export interface LayoutProps {
  session: PanelSession | undefined;
  memberships: MembershipOption[];
  csrf: string;
  path: string;
  children: ComponentChildren;
}

interface NavItem {
  href: string;
  label: PanelKey;
  show: (role: Role) => boolean;
}

const NAV: { group?: PanelKey; items: NavItem[] }[] = [
  { items: [{ href: `${PANEL_PREFIX}`, label: 'nav.home', show: () => true }] },
  {
    group: 'nav.bookings',
    items: [
      { href: `${PANEL_PREFIX}/calendar`, label: 'nav.calendar', show: (role) => can(role, 'bookings') },
      { href: `${PANEL_PREFIX}/bookings`, label: 'nav.bookingsList', show: (role) => can(role, 'bookings') },
      { href: `${PANEL_PREFIX}/customers`, label: 'nav.customers', show: (role) => can(role, 'bookings') },
      { href: `${PANEL_PREFIX}/waitlist`, label: 'nav.waitlist', show: (role) => can(role, 'bookings') },
      { href: `${PANEL_PREFIX}/reports`, label: 'nav.reports', show: (role) => can(role, 'reports') },
    ],
  },
  {
    group: 'nav.setup',
    items: [
      { href: `${PANEL_PREFIX}/setup/locations`, label: 'nav.locations', show: (role) => can(role, 'setup') },
      { href: `${PANEL_PREFIX}/setup/services`, label: 'nav.services', show: (role) => can(role, 'setup') },
      {
        href: `${PANEL_PREFIX}/setup/staffers`,
        label: 'nav.staffers',
        show: (role) => can(role, 'setup'),
      },
      {
        href: `${PANEL_PREFIX}/setup/statuses`,
        label: 'nav.statuses',
        show: (role) => can(role, 'setup'),
      },
      {
        href: `${PANEL_PREFIX}/setup/payment-accounts`,
        label: 'nav.paymentAccounts',
        show: (role) => can(role, 'setup'),
      },
      {
        href: `${PANEL_PREFIX}/setup/resources`,
        label: 'nav.resources',
        show: (role) => can(role, 'setup'),
      },
    ],
  },
  {
    group: 'nav.settings',
    items: [
      {
        href: `${PANEL_PREFIX}/settings/workspace`,
        label: 'nav.workspace',
        show: (role) => can(role, 'settings'),
      },
      { href: `${PANEL_PREFIX}/team`, label: 'nav.team', show: (role) => can(role, 'team') },
      { href: `${PANEL_PREFIX}/settings/audit`, label: 'nav.auditLog', show: (role) => can(role, 'team') },
      {
        href: `${PANEL_PREFIX}/settings/data`,
        label: 'nav.importExport',
        show: (role) => can(role, 'settings'),
      },
      {
        href: `${PANEL_PREFIX}/settings/calendar-feeds`,
        label: 'nav.calendarFeeds',
        show: (role) => can(role, 'settings'),
      },
      {
        href: `${PANEL_PREFIX}/settings/payments`,
        label: 'nav.payments',
        show: (role) => can(role, 'settings'),
      },
      {
        href: `${PANEL_PREFIX}/settings/notifications`,
        label: 'nav.notifications',
        show: (role) => can(role, 'notifications'),
      },
      {
        href: `${PANEL_PREFIX}/settings/developers/api-keys`,
        label: 'nav.apiKeys',
        show: (role) => can(role, 'developers'),
      },
      {
        href: `${PANEL_PREFIX}/settings/developers/webhooks`,
        label: 'nav.webhooks',
        show: (role) => can(role, 'developers'),
      },
      { href: `${PANEL_PREFIX}/account/calendar`, label: 'nav.yourCalendar', show: () => true },
      { href: `${PANEL_PREFIX}/account/calendar-feed`, label: 'nav.yourFeed', show: () => true },
      { href: `${PANEL_PREFIX}/account/notifications`, label: 'nav.yourEmails', show: () => true },
      { href: `${PANEL_PREFIX}/account/password`, label: 'nav.yourPassword', show: () => true },
    ],
  },
];

function isCurrent(href: string, path: string): boolean {
  if (href === PANEL_PREFIX) return path === PANEL_PREFIX || path === `${PANEL_PREFIX}/`;
  return path === href || path.startsWith(`${href}/`);
}

/** The signed-in frame: top bar (workspace switcher, sign-out), side navigation, main. */
export function AppLayout(props: LayoutProps) {
  const { session } = props;
  const { t } = usePanelText();
  const role = session?.workspace?.role;
  return (
    <body>
      <a class="skip" href="#main">
        {t('layout.skip')}
      </a>
      <header class="top">
        <a class="brand" href={PANEL_PREFIX}>
          Kairos
        </a>
        {session?.workspace && props.memberships.length > 1 && (
          <form method="post" action={`${PANEL_PREFIX}/workspace`} class="switcher">
            <Csrf token={props.csrf} />
            <label for="workspace-switch">{t('layout.workspace')}</label>
            <select id="workspace-switch" name="workspace">
              {props.memberships.map((m) => (
                <option value={m.workspace_id} selected={m.workspace_id === session.workspace?.id}>
                  {m.name}
                </option>
              ))}
            </select>
            <button type="submit">{t('layout.switch')}</button>
          </form>
        )}
        {session?.workspace && props.memberships.length <= 1 && <span>{session.workspace.name}</span>}
        {session && (
          <form method="post" action={`${PANEL_PREFIX}/sign-out`} class="inline">
            <Csrf token={props.csrf} />
            <button type="submit">{t('layout.signOut')}</button>
          </form>
        )}
      </header>
      <div class="shell">
        {role && (
          <nav class="side" aria-label={t('layout.navLabel')}>
            {/* On a phone the links wait behind "Menu" so a page starts at its own content. A
                checkbox, not <details>: at desktop widths the links must show whatever its state,
                and CSS cannot open a closed <details> everywhere. It needs no JavaScript, and
                Tab and Space reach and toggle it like any checkbox. */}
            <input type="checkbox" id="nav-toggle" class="nav-toggle" aria-controls="nav-links" />
            <label for="nav-toggle" class="nav-button">
              {t('layout.menu')}
            </label>
            <div class="nav-links" id="nav-links">
              {NAV.map((section) => {
                const items = section.items.filter((item) => item.show(role));
                if (items.length === 0) return null;
                return (
                  <>
                    {section.group && (
                      <p class="group" aria-hidden="true">
                        {t(section.group)}
                      </p>
                    )}
                    <ul>
                      {items.map((item) => (
                        <li>
                          <a
                            href={item.href}
                            aria-current={isCurrent(item.href, props.path) ? 'page' : undefined}
                          >
                            {t(item.label)}
                          </a>
                        </li>
                      ))}
                    </ul>
                  </>
                );
              })}
            </div>
          </nav>
        )}
        <main id="main">{props.children}</main>
      </div>
      <footer class="bottom">{t('layout.footer')}</footer>
    </body>
  );
}

/** Pages without a session (sign-in, invite, reset) and error pages of signed-out visitors. */
export function BareLayout({ children }: { children: ComponentChildren }) {
  return (
    <body>
      <header class="top">
        <a class="brand" href={PANEL_PREFIX}>
          Kairos
        </a>
      </header>
      <main id="main" class="narrow">
        {children}
      </main>
    </body>
  );
}
