import { CopySlot, Csrf } from '../../panel-kit/forms.js';
import { type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { FormKey } from '../../platform/pages/form-key.js';

/** Where the one user–staffer link is set (Settings → Notifications, the staffer forms). */
const LINKS = `${PANEL_PREFIX}/settings/notifications`;

export const FEEDS = `${PANEL_PREFIX}/settings/calendar-feeds`;
export const OWN_FEED = `${PANEL_PREFIX}/account/calendar-feed`;

const when = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** A feed URL as selectable text with the copy-text island's button beside it. */
function FeedUrl({ id, url, label }: { id: string; url: string; label: string }) {
  return (
    <div class="secret">
      <span class="visually-hidden">{label}: </span>
      <code id={id}>{url}</code>
      <CopySlot target={id} />
    </div>
  );
}

export interface StafferFeedView {
  stafferId: string;
  name: string;
  url: string | undefined;
  regeneratedAt: Date | undefined;
  /** The member who is this staffer, as "Name (email)", or null. */
  member: string | null;
}

/**
 * Settings → Calendar feeds (owners and admins): each staffer's feed, and which member they are
 * (shown only: set under Settings → Notifications).
 */
export function CalendarFeedsPage(props: {
  csrf: string;
  staffers: StafferFeedView[];
  notice?: string;
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <>
      <p class="crumbs">{t('nav.settings')} /</p>
      <h1>{t('nav.calendarFeeds')}</h1>
      <p class="lead">
        {t('feeds.lead')} {t('feeds.how')}
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="table-wrap">
        <table class="stack" aria-label={t('feeds.table')}>
          <thead>
            <tr>
              <th scope="col">{t('booking.staffer')}</th>
              <th scope="col">{t('feeds.url')}</th>
              <th scope="col">{t('feeds.panelUser')}</th>
            </tr>
          </thead>
          <tbody>
            {props.staffers.length === 0 && (
              <tr>
                <td colSpan={3} class="muted">
                  {t('feeds.noStaffers')}
                </td>
              </tr>
            )}
            {props.staffers.map((staffer) => (
              <tr>
                <td data-label={t('booking.staffer')}>{staffer.name}</td>
                <td data-label={t('feeds.url')}>
                  {staffer.url ? (
                    <>
                      <FeedUrl
                        id={`feed-${staffer.stafferId}`}
                        url={staffer.url}
                        label={t('feeds.feedOf', { name: staffer.name })}
                      />
                      <p class="muted">{t('feeds.made', { when: when(staffer.regeneratedAt!) })}</p>
                    </>
                  ) : (
                    <p class="muted">{t('feeds.noFeed')}</p>
                  )}
                  <form
                    method="post"
                    action={`${FEEDS}/staffers/${staffer.stafferId}/regenerate`}
                    class="inline"
                  >
                    <Csrf token={props.csrf} />
                    <FormKey />
                    <button type="submit" class="secondary">
                      {staffer.url ? t('feeds.regenerate') : t('feeds.make')}
                      <span class="skip-label">{t('feeds.forStaffer', { name: staffer.name })}</span>
                    </button>
                  </form>
                </td>
                <td data-label={t('feeds.panelUser')}>
                  {staffer.member ?? <span class="muted">{t('feeds.none')}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="muted">
        {withElements((values) => t('feeds.note', values), {
          link: <a href={LINKS}>{t('feeds.notificationsLink')}</a>,
        })}
      </p>
    </>
  );
}

/** Your calendar feed: the bookings of the staffer you are in this workspace. */
export function OwnFeedPage(props: {
  csrf: string;
  workspaceName: string;
  url: string | undefined;
  regeneratedAt: Date | undefined;
  stafferName: string | undefined;
  notice?: string;
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <>
      <h1>{t('nav.yourFeed')}</h1>
      <p class="lead">
        {props.stafferName
          ? withElements((values) => t('feeds.ownLinked', { ...values, workspace: props.workspaceName }), {
              staffer: <strong>{props.stafferName}</strong>,
            })
          : t('feeds.ownUnlinked', { workspace: props.workspaceName })}{' '}
        {t('feeds.how')}
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="card">
        {props.url ? (
          <>
            <FeedUrl id="own-feed" url={props.url} label={t('feeds.ownUrl')} />
            <p class="muted">{t('feeds.made', { when: when(props.regeneratedAt!) })}</p>
          </>
        ) : (
          <p class="muted">{t('feeds.ownNone')}</p>
        )}
        <form method="post" action={`${OWN_FEED}/regenerate`}>
          <Csrf token={props.csrf} />
          <FormKey />
          <button type="submit">{props.url ? t('feeds.regenerate') : t('feeds.ownMake')}</button>
        </form>
      </div>
    </>
  );
}
