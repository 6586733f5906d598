import { CopySlot, Csrf } from '../../panel-kit/forms.js';
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

const HOW =
  'Subscribe to the URL in Google Calendar (Other calendars → From URL), Apple Calendar (File → New Calendar Subscription) or Outlook (Add calendar → Subscribe from web). Anyone with the URL sees the bookings: regenerate it if it leaked, and the old URL stops at once.';

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
export function CalendarFeedsPage(props: { csrf: string; staffers: StafferFeedView[]; notice?: string }) {
  return (
    <>
      <p class="crumbs">Settings /</p>
      <h1>Calendar feeds</h1>
      <p class="lead">
        Each staffer's bookings, from 30 days back to the booking horizon, as a calendar to subscribe to.{' '}
        {HOW}
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="table-wrap">
        <table class="stack" aria-label="Calendar feeds of the staffers">
          <thead>
            <tr>
              <th scope="col">Staffer</th>
              <th scope="col">Feed URL</th>
              <th scope="col">Panel user</th>
            </tr>
          </thead>
          <tbody>
            {props.staffers.length === 0 && (
              <tr>
                <td colSpan={3} class="muted">
                  No staffers yet.
                </td>
              </tr>
            )}
            {props.staffers.map((staffer) => (
              <tr>
                <td data-label="Staffer">{staffer.name}</td>
                <td data-label="Feed URL">
                  {staffer.url ? (
                    <>
                      <FeedUrl
                        id={`feed-${staffer.stafferId}`}
                        url={staffer.url}
                        label={`Feed of ${staffer.name}`}
                      />
                      <p class="muted">Made {when(staffer.regeneratedAt!)}</p>
                    </>
                  ) : (
                    <p class="muted">No feed yet.</p>
                  )}
                  <form
                    method="post"
                    action={`${FEEDS}/staffers/${staffer.stafferId}/regenerate`}
                    class="inline"
                  >
                    <Csrf token={props.csrf} />
                    <FormKey />
                    <button type="submit" class="secondary">
                      {staffer.url ? 'Regenerate URL' : 'Make a feed URL'}
                      <span class="skip-label"> for {staffer.name}</span>
                    </button>
                  </form>
                </td>
                <td data-label="Panel user">{staffer.member ?? <span class="muted">None</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="muted">
        The panel user of a staffer finds the same bookings in their own feed (Your calendar feed). Who is
        which staffer is set in one place, <a href={LINKS}>Settings → Notifications</a>, and decides their
        booking emails and their own calendar column as well.
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
}) {
  return (
    <>
      <h1>Your calendar feed</h1>
      <p class="lead">
        {props.stafferName ? (
          <>
            Your bookings at {props.workspaceName} as <strong>{props.stafferName}</strong>, from 30 days back
            to the booking horizon.
          </>
        ) : (
          <>
            You are not linked to a staffer of {props.workspaceName} yet, so your feed is empty. An owner or
            admin links you under Settings → Notifications.
          </>
        )}{' '}
        {HOW}
      </p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="card">
        {props.url ? (
          <>
            <FeedUrl id="own-feed" url={props.url} label="Your feed URL" />
            <p class="muted">Made {when(props.regeneratedAt!)}</p>
          </>
        ) : (
          <p class="muted">You have no feed URL yet.</p>
        )}
        <form method="post" action={`${OWN_FEED}/regenerate`}>
          <Csrf token={props.csrf} />
          <FormKey />
          <button type="submit">{props.url ? 'Regenerate URL' : 'Make my feed URL'}</button>
        </form>
      </div>
    </>
  );
}
