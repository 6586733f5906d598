import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { can } from '../../users/roles.js';
import type { PanelSession } from '../../users/sessions.service.js';

type Session = PanelSession & { workspace: NonNullable<PanelSession['workspace']> };

const ROLE_LABEL = { owner: 'Owner', admin: 'Admin', staff: 'Staff' } as const;

/** The panel's first page: which workspace this is, your role, and where to go next. */
export function HomePage({ session }: { session: Session }) {
  const { workspace } = session;
  return (
    <>
      <h1>{workspace.name}</h1>
      <p class="lead">
        Signed in as {session.user.email} · {ROLE_LABEL[workspace.role]} of the workspace{' '}
        <code>{workspace.slug}</code>
      </p>
      {can(workspace.role, 'setup') && (
        <div class="card">
          <h2>Setup</h2>
          <ul>
            <li>
              <a href={`${PANEL_PREFIX}/setup/locations`}>Locations</a>: addresses, time zones and opening
              hours.
            </li>
            <li>
              <a href={`${PANEL_PREFIX}/setup/services`}>Services</a>: what customers book, its duration,
              price and places.
            </li>
            <li>
              <a href={`${PANEL_PREFIX}/setup/statuses`}>Booking statuses</a>: the steps of a booking and
              their colours.
            </li>
            <li>
              <a href={`${PANEL_PREFIX}/setup/payment-accounts`}>Payment accounts</a>: where each location's
              money goes.
            </li>
          </ul>
        </div>
      )}
      <div class="card">
        <h2>Settings</h2>
        <ul>
          {can(workspace.role, 'settings') && (
            <li>
              <a href={`${PANEL_PREFIX}/settings/workspace`}>Workspace</a>: name, contacts, currency and
              locale, the booking form and the booking rules.
            </li>
          )}
          {can(workspace.role, 'team') && (
            <li>
              <a href={`${PANEL_PREFIX}/team`}>Team</a>: invite members, change roles.
            </li>
          )}
          {can(workspace.role, 'settings') && (
            <li>
              <a href={`${PANEL_PREFIX}/settings/calendar-feeds`}>Calendar feeds</a>: each staffer's bookings
              as a calendar to subscribe to.
            </li>
          )}
          {can(workspace.role, 'notifications') && (
            <li>
              <a href={`${PANEL_PREFIX}/settings/notifications`}>Notifications</a>: which emails customers and
              staff get, and the mail log.
            </li>
          )}
          {can(workspace.role, 'developers') && (
            <>
              <li>
                <a href={`${PANEL_PREFIX}/settings/developers/api-keys`}>API keys</a>: one per integration;
                send it as <code>Authorization: Bearer secret_…</code> with{' '}
                <code>Workspace: {workspace.slug}</code>.
              </li>
              <li>
                <a href={`${PANEL_PREFIX}/settings/developers/webhooks`}>Webhooks</a>: get booking events at
                your own URL.
              </li>
            </>
          )}
          <li>
            <a href={`${PANEL_PREFIX}/account/calendar-feed`}>Your calendar feed</a>
          </li>
          <li>
            <a href={`${PANEL_PREFIX}/account/notifications`}>Your booking emails</a>
          </li>
          <li>
            <a href={`${PANEL_PREFIX}/account/password`}>Your password</a>
          </li>
        </ul>
        {workspace.role === 'staff' && (
          <p class="muted">
            Your role is Staff: the workspace settings are managed by its owners and admins.
          </p>
        )}
      </div>
    </>
  );
}
