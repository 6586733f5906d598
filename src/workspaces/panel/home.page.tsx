import type { ComponentChildren } from 'preact';
import type { Agenda, AgendaLocation } from '../../calendar/agenda.service.js';
import type { CalendarWarning } from '../../calendar-sync/calendar-sync.service.js';
import { CopySlot } from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { formatMoney } from '../../platform/money.js';
import { formatDate, formatDayShort, formatTime } from '../../platform/time/format.js';
import type { AttentionItem, DayCount, Figures, Glance } from '../../reports/glance.service.js';
import { can } from '../../users/roles.js';
import type { PanelSession } from '../../users/sessions.service.js';
import type { SetupStep } from '../setup-progress.service.js';

type Session = PanelSession & { workspace: NonNullable<PanelSession['workspace']> };

/** Lines shown per location; the calendar has the rest. */
const AGENDA_LINES = 30;

/** Where each missing setup step is done; its texts are `home.step.<step>.*`. */
const SETUP_STEPS: Record<SetupStep, string> = {
  location: `${PANEL_PREFIX}/setup/locations/new`,
  service: `${PANEL_PREFIX}/setup/services/new`,
  staffer: `${PANEL_PREFIX}/setup/staffers/new`,
  hours: `${PANEL_PREFIX}/setup/staffers`,
};

export interface HomeView {
  session: Session;
  agenda: Agenda;
  /** The next seven days, today and this week against the week before, what needs attention. */
  glance: Glance;
  currency: string;
  /** The first missing setup step, shown to those who may set up; undefined once bookable. */
  setupStep: SetupStep | undefined;
  /** Staffers' calendars that do not sync (docs/calendar-sync.md), for those who may set up. */
  calendarWarnings: CalendarWarning[];
  bookingPageUrl: string;
  text: PanelText;
  /** Shown once after the first sign-in's password change. */
  welcome: boolean;
}

/**
 * The panel's first page: today's work first (the agenda, own bookings first for a staffer), the
 * next setup step while a first booking is not yet possible, the booking page's address to
 * share, then where everything else is.
 */
export function HomePage({
  session,
  agenda,
  glance,
  currency,
  setupStep,
  calendarWarnings,
  bookingPageUrl,
  text,
  welcome,
}: HomeView) {
  const { workspace } = session;
  const { t } = text;
  const step = setupStep && can(workspace.role, 'setup') ? setupStep : undefined;
  const link = (key: PanelKey, href: string, values: Record<string, ComponentChildren> = {}) =>
    withElements((v) => t(key, v), { link: <a href={href}>{t(LINK_LABELS[href] ?? key)}</a>, ...values });
  return (
    <>
      <h1>{workspace.name}</h1>
      <p class="lead">
        {withElements(
          (values) =>
            t('home.signedInAs', { ...values, email: session.user.email, role: t(`role.${workspace.role}`) }),
          { slug: <code>{workspace.slug}</code> },
        )}
      </p>
      {welcome && (
        <p class="notice" role="status">
          {t('home.welcome')}
        </p>
      )}
      {step && (
        <section class="card next-step" aria-labelledby="next-step">
          <h2 id="next-step">{t('home.nextStep', { step: t(`home.step.${step}.title`) })}</h2>
          <p>{t(`home.step.${step}.text`)}</p>
          <p>
            <a class="button" href={SETUP_STEPS[step]}>
              {t(`home.step.${step}.action`)}
            </a>
          </p>
        </section>
      )}
      <section class="card" aria-labelledby="today">
        <h2 id="today">{t('home.today')}</h2>
        {agenda.locations.length === 0 ? (
          <p class="muted">{t('home.noBookings')}</p>
        ) : (
          agenda.locations.map((location) => (
            <AgendaList location={location} text={text} multiple={agenda.locations.length > 1} />
          ))
        )}
        <p>
          <a href={`${PANEL_PREFIX}/calendar`}>{t('home.openCalendar')}</a> ·{' '}
          <a href={`${PANEL_PREFIX}/bookings/new`}>{t('home.newBooking')}</a>
        </p>
      </section>
      <NextDays days={glance.nextDays} own={glance.ownStafferId !== null} text={text} />
      <GlanceCard glance={glance} currency={currency} text={text} reports={can(workspace.role, 'reports')} />
      <Attention items={glance.attention} calendars={calendarWarnings} text={text} />
      <section class="card" aria-labelledby="booking-page">
        <h2 id="booking-page">{t('home.bookingPage')}</h2>
        <p>{setupStep ? t('home.bookingPageSoon') : t('home.bookingPageReady')}</p>
        <div class="secret">
          <span class="visually-hidden">{t('home.bookingPageAddress')}</span>
          <code id="booking-page-url">{bookingPageUrl}</code>
          <CopySlot target="booking-page-url" />
        </div>
        <p>
          <a href={bookingPageUrl}>{t('home.openBookingPage')}</a>
        </p>
      </section>
      {can(workspace.role, 'setup') && (
        <div class="card">
          <h2>{t('home.setup')}</h2>
          <ul>
            <li>{link('home.setup.locations', `${PANEL_PREFIX}/setup/locations`)}</li>
            <li>{link('home.setup.services', `${PANEL_PREFIX}/setup/services`)}</li>
            <li>{link('home.setup.staffers', `${PANEL_PREFIX}/setup/staffers`)}</li>
            <li>{link('home.setup.statuses', `${PANEL_PREFIX}/setup/statuses`)}</li>
            <li>{link('home.setup.paymentAccounts', `${PANEL_PREFIX}/setup/payment-accounts`)}</li>
          </ul>
        </div>
      )}
      <div class="card">
        <h2>{t('home.settings')}</h2>
        <ul>
          {can(workspace.role, 'settings') && (
            <li>{link('home.settings.workspace', `${PANEL_PREFIX}/settings/workspace`)}</li>
          )}
          {can(workspace.role, 'team') && <li>{link('home.settings.team', `${PANEL_PREFIX}/team`)}</li>}
          {can(workspace.role, 'settings') && (
            <li>{link('home.settings.calendarFeeds', `${PANEL_PREFIX}/settings/calendar-feeds`)}</li>
          )}
          {can(workspace.role, 'notifications') && (
            <li>{link('home.settings.notifications', `${PANEL_PREFIX}/settings/notifications`)}</li>
          )}
          {can(workspace.role, 'developers') && (
            <>
              <li>
                {link('home.settings.apiKeys', `${PANEL_PREFIX}/settings/developers/api-keys`, {
                  header: <code>Authorization: Bearer secret_…</code>,
                  workspace: <code>Workspace: {workspace.slug}</code>,
                })}
              </li>
              <li>{link('home.settings.webhooks', `${PANEL_PREFIX}/settings/developers/webhooks`)}</li>
            </>
          )}
          <li>
            <a href={`${PANEL_PREFIX}/account/calendar-feed`}>{t('nav.yourFeed')}</a>
          </li>
          <li>
            <a href={`${PANEL_PREFIX}/account/notifications`}>{t('nav.yourEmails')}</a>
          </li>
          <li>
            <a href={`${PANEL_PREFIX}/account/password`}>{t('nav.yourPassword')}</a>
          </li>
        </ul>
        {workspace.role === 'staff' && <p class="muted">{t('home.staffRole')}</p>}
      </div>
    </>
  );
}

/** The link text of each place Home points to: the navigation's name for it. */
const LINK_LABELS: Record<string, PanelKey> = {
  [`${PANEL_PREFIX}/setup/locations`]: 'nav.locations',
  [`${PANEL_PREFIX}/setup/services`]: 'nav.services',
  [`${PANEL_PREFIX}/setup/staffers`]: 'nav.staffers',
  [`${PANEL_PREFIX}/setup/statuses`]: 'nav.statuses',
  [`${PANEL_PREFIX}/setup/payment-accounts`]: 'nav.paymentAccounts',
  [`${PANEL_PREFIX}/settings/workspace`]: 'nav.workspace',
  [`${PANEL_PREFIX}/team`]: 'nav.team',
  [`${PANEL_PREFIX}/settings/calendar-feeds`]: 'nav.calendarFeeds',
  [`${PANEL_PREFIX}/settings/notifications`]: 'nav.notifications',
  [`${PANEL_PREFIX}/settings/developers/api-keys`]: 'nav.apiKeys',
  [`${PANEL_PREFIX}/settings/developers/webhooks`]: 'nav.webhooks',
};

function AgendaList({
  location,
  text,
  multiple,
}: {
  location: AgendaLocation;
  text: PanelText;
  multiple: boolean;
}) {
  const { t, locale } = text;
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
            <a href={`${PANEL_PREFIX}/bookings/${booking.id}`}>
              {booking.customer_name || t('home.customer')}
            </a>
            <span class="muted">
              {' '}
              · {booking.services || t('home.booking')} · {booking.own ? t('home.you') : booking.staffer_name}{' '}
              ·{' '}
            </span>
            <span class="status">{booking.status_name}</span>
          </li>
        ))}
      </ol>
      {more > 0 && (
        <p class="muted">
          {withElements((values) => t('home.more', { ...values, n: more }), {
            link: (
              <a href={`${PANEL_PREFIX}/calendar?location=${location.locationId}`}>{t('home.seeCalendar')}</a>
            ),
          })}
        </p>
      )}
    </>
  );
}

function NextDays({ days, own, text }: { days: DayCount[]; own: boolean; text: PanelText }) {
  const { t, locale } = text;
  return (
    <section class="card" aria-labelledby="next-days">
      <h2 id="next-days">{t('home.next7')}</h2>
      <ul class="next-days">
        {days.map((day) => {
          const label = formatDayShort(day.date, locale);
          return (
            <li>
              <a href={`${PANEL_PREFIX}/calendar?date=${day.date}`}>
                {label.weekday} {label.day} {label.month}
              </a>{' '}
              <span class={day.bookings === 0 ? 'muted' : undefined}>
                {own
                  ? t('home.next7.own', { n: day.bookings, own: day.own })
                  : t('home.next7.count', { n: day.bookings })}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** "+12 %", "−3 %", or "–" when the week before had nothing to compare with. */
function change(now: number, before: number, locale: string): string {
  if (before === 0) return '–';
  return new Intl.NumberFormat(locale, {
    style: 'percent',
    maximumFractionDigits: 0,
    signDisplay: 'exceptZero',
  }).format((now - before) / before);
}

function GlanceCard({
  glance,
  currency,
  text,
  reports,
}: {
  glance: Glance;
  currency: string;
  text: PanelText;
  reports: boolean;
}) {
  const { t, locale } = text;
  const count = new Intl.NumberFormat(locale);
  const tile = (key: PanelKey, now: Figures, before: Figures, pick: 'bookings' | 'revenue') => {
    const a = now[pick];
    const b = before[pick];
    if (a === undefined || b === undefined) return null;
    const show = (value: number) =>
      pick === 'revenue' ? formatMoney(value, currency, locale) : count.format(value);
    return (
      <div>
        <dt>{t(key)}</dt>
        <dd class="glance-now">{show(a)}</dd>
        <dd class="muted">{t('home.glance.compare', { before: show(b), change: change(a, b, locale) })}</dd>
      </div>
    );
  };
  return (
    <section class="card" aria-labelledby="glance">
      <h2 id="glance">{t('home.glance')}</h2>
      <dl class="glance">
        {tile('home.glance.todayBookings', glance.todayFigures, glance.sameDayLastWeek, 'bookings')}
        {tile('home.glance.todayRevenue', glance.todayFigures, glance.sameDayLastWeek, 'revenue')}
        {tile('home.glance.weekBookings', glance.weekToDate, glance.lastWeekToDate, 'bookings')}
        {tile('home.glance.weekRevenue', glance.weekToDate, glance.lastWeekToDate, 'revenue')}
      </dl>
      {reports && (
        <p>
          <a href={`${PANEL_PREFIX}/reports`}>{t('home.glance.reports')}</a>
        </p>
      )}
    </section>
  );
}

/** Where each kind of failure is seen and retried. */
const ATTENTION_LINKS: Record<AttentionItem['kind'], string> = {
  webhooks: `${PANEL_PREFIX}/settings/developers/webhooks`,
  emails: `${PANEL_PREFIX}/settings/notifications`,
  texts: `${PANEL_PREFIX}/settings/notifications/texts`,
  payments: `${PANEL_PREFIX}/bookings`,
  holds: `${PANEL_PREFIX}/bookings`,
  waitlistExpired: `${PANEL_PREFIX}/waitlist`,
  waitlistWaiting: `${PANEL_PREFIX}/waitlist`,
};

/** The link's words: failures are retried where they are listed; holds are only seen. */
const ATTENTION_LINK_TEXT: Record<AttentionItem['kind'], PanelKey> = {
  webhooks: 'home.attention.open',
  emails: 'home.attention.open',
  texts: 'home.attention.open',
  payments: 'home.attention.see',
  holds: 'home.attention.see',
  waitlistExpired: 'home.attention.see',
  waitlistWaiting: 'home.attention.see',
};

/**
 * What needs attention, each item a link to where it is fixed: failed deliveries, declined
 * charges, unpaid holds, and staffers' calendars that do not sync (each name a link to the
 * staffer's page, where the connection is seen and its password replaced).
 */
function Attention({
  items,
  calendars,
  text,
}: {
  items: AttentionItem[];
  calendars: CalendarWarning[];
  text: PanelText;
}) {
  const { t } = text;
  return (
    <section class="card" aria-labelledby="attention">
      <h2 id="attention">{t('home.attention')}</h2>
      {items.length === 0 && calendars.length === 0 ? (
        <p class="muted">{t('home.attention.none')}</p>
      ) : (
        <ul class="attention">
          {items.map((item) => (
            <li>
              {withElements((values) => t(`home.attention.${item.kind}`, { ...values, n: item.count }), {
                link: <a href={ATTENTION_LINKS[item.kind]}>{t(ATTENTION_LINK_TEXT[item.kind])}</a>,
              })}
            </li>
          ))}
          {calendars.map((w) => (
            <li class="calendar-warning" data-staffer={w.stafferId}>
              {withElements(
                (values) =>
                  t(w.status === 'refused' ? 'home.calendars.refused' : 'home.calendars.failing', values),
                { name: <a href={`${PANEL_PREFIX}/setup/staffers/${w.stafferId}`}>{w.name}</a> },
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
