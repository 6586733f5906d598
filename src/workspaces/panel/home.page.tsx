import type { Agenda, AgendaLocation } from '../../calendar/agenda.service.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { formatDate, formatTime } from '../../platform/time/format.js';
import { can } from '../../users/roles.js';
import type { PanelSession } from '../../users/sessions.service.js';
import type { SetupStep } from '../setup-progress.service.js';

type Session = PanelSession & { workspace: NonNullable<PanelSession['workspace']> };

const ROLE_LABEL = { owner: 'Owner', admin: 'Admin', staff: 'Staff' } as const;

/** Lines shown per location; the calendar has the rest. */
const AGENDA_LINES = 30;

/** What each missing setup step asks for, and where it is done. */
const SETUP_STEPS: Record<SetupStep, { title: string; text: string; href: string; action: string }> = {
  location: {
    title: 'Add your first location',
    text: 'Where customers come: its address, time zone and opening hours.',
    href: `${PANEL_PREFIX}/setup/locations/new`,
    action: 'Add a location',
  },
  service: {
    title: 'Add a service',
    text: 'What customers book: its duration, price and the locations that offer it.',
    href: `${PANEL_PREFIX}/setup/services/new`,
    action: 'Add a service',
  },
  staffer: {
    title: 'Add a staffer who gives it',
    text: 'Who does the work, and which services they give at which location.',
    href: `${PANEL_PREFIX}/setup/staffers/new`,
    action: 'Add a staffer',
  },
  hours: {
    title: 'Set working hours',
    text: 'Open a staffer and set their hours at a location: customers can book only within them.',
    href: `${PANEL_PREFIX}/setup/staffers`,
    action: 'Choose a staffer',
  },
};

export interface HomeView {
  session: Session;
  agenda: Agenda;
  /** The first missing setup step, shown to those who may set up; undefined once bookable. */
  setupStep: SetupStep | undefined;
  bookingPageUrl: string;
  locale: string;
  /** Shown once after the first sign-in's password change. */
  welcome: boolean;
}

/**
 * The panel's first page: today's work first (the agenda, own bookings first for a staffer), the
 * next setup step while a first booking is not yet possible, the booking page's address to
 * share, then where everything else is.
 */
export function HomePage({ session, agenda, setupStep, bookingPageUrl, locale, welcome }: HomeView) {
  const { workspace } = session;
  const step = setupStep && can(workspace.role, 'setup') ? SETUP_STEPS[setupStep] : undefined;
  return (
    <>
      <h1>{workspace.name}</h1>
      <p class="lead">
        Signed in as {session.user.email} · {ROLE_LABEL[workspace.role]} of the workspace{' '}
        <code>{workspace.slug}</code>
      </p>
      {welcome && (
        <p class="notice" role="status">
          Your password is set. This is your home page: today's bookings and what to do next.
        </p>
      )}
      {step && (
        <section class="card next-step" aria-labelledby="next-step">
          <h2 id="next-step">Next step: {step.title.toLowerCase()}</h2>
          <p>{step.text}</p>
          <p>
            <a class="button" href={step.href}>
              {step.action}
            </a>
          </p>
        </section>
      )}
      <section class="card" aria-labelledby="today">
        <h2 id="today">Today</h2>
        {agenda.locations.length === 0 ? (
          <p class="muted">No bookings today.</p>
        ) : (
          agenda.locations.map((location) => (
            <AgendaList location={location} locale={locale} multiple={agenda.locations.length > 1} />
          ))
        )}
        <p>
          <a href={`${PANEL_PREFIX}/calendar`}>Open the calendar</a> ·{' '}
          <a href={`${PANEL_PREFIX}/bookings/new`}>New booking</a>
        </p>
      </section>
      <section class="card" aria-labelledby="booking-page">
        <h2 id="booking-page">Your booking page</h2>
        <p>
          {setupStep
            ? 'Customers can book here once the setup is done. Share the address, or put it on your website.'
            : 'Customers book here. Share the address, or put it on your website.'}
        </p>
        <div class="secret">
          <span class="visually-hidden">Booking page address: </span>
          <code id="booking-page-url">{bookingPageUrl}</code>
          <span data-copy-target="booking-page-url" />
        </div>
        <p>
          <a href={bookingPageUrl}>Open the booking page</a>
        </p>
      </section>
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
              <a href={`${PANEL_PREFIX}/setup/staffers`}>Staff and hours</a>: who works where, which services
              they give and their working hours.
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

function AgendaList({
  location,
  locale,
  multiple,
}: {
  location: AgendaLocation;
  locale: string;
  multiple: boolean;
}) {
  const shown = location.bookings.slice(0, AGENDA_LINES);
  const more = location.bookings.length - shown.length;
  const heading = `${multiple ? `${location.locationName} · ` : ''}${formatDate(location.date, locale)}`;
  return (
    <>
      <h3>{heading}</h3>
      <ol class="agenda">
        {shown.map((booking) => (
          <li class={booking.own ? 'own' : undefined}>
            <span class="agenda-time">
              {formatTime(booking.start_ms, location.timezone, locale)}–
              {formatTime(booking.end_ms, location.timezone, locale)}
            </span>{' '}
            <a href={`${PANEL_PREFIX}/bookings/${booking.id}`}>{booking.customer_name || 'Customer'}</a>
            <span class="muted">
              {' '}
              · {booking.services || 'Booking'} · {booking.own ? 'You' : booking.staffer_name} ·{' '}
            </span>
            <span class="status">{booking.status_name}</span>
          </li>
        ))}
      </ol>
      {more > 0 && (
        <p class="muted">
          And {more} more:{' '}
          <a href={`${PANEL_PREFIX}/calendar?location=${location.locationId}`}>see the calendar</a>.
        </p>
      )}
    </>
  );
}
