import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type PanelKey, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import {
  feedUrlOf,
  linkedStafferOf,
  listStaffersWithFeeds,
  regenerateFeed,
  showFeed,
  stafferNameOf,
} from '../calendar-feeds.service.js';
import { CalendarFeedsPage, FEEDS, OWN_FEED, OwnFeedPage } from './calendar-feeds.page.js';

const settings = { config: { panelAccess: 'settings' as const } };

const NOTICES: Record<string, PanelKey> = {
  regenerated: 'feeds.regenerated',
};

const noticeOf = (request: FastifyRequest) => {
  const key = NOTICES[(request.query as Record<string, string | undefined>).notice ?? ''];
  return key ? panelTextOf(request).t(key) : undefined;
};

/**
 * Calendar feeds in the panel (docs/calendar-feeds.md): Settings → Calendar feeds for owners and
 * admins (every staffer's feed, and which member each staffer is: shown here, set under Settings →
 * Notifications, the one place for that link), and Your calendar feed for every member. Writes
 * call the same services as the CLI.
 */
export function calendarFeedsPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/settings/calendar-feeds', settings, async (request, reply) => {
    const workspace = (await panelContextOf(request)).workspace;
    const rows = await listStaffersWithFeeds(deps.db, workspace.id);
    const notice = noticeOf(request);
    return reply.page({
      title: panelTextOf(request).t('nav.calendarFeeds'),
      islands: ['copy-text'],
      body: CalendarFeedsPage({
        csrf: reply.csrf(),
        staffers: rows.map((row) => ({
          stafferId: row.staffer_id,
          name: `${row.first_name} ${row.last_name}`.trim(),
          url:
            row.feed_id && row.nonce
              ? feedUrlOf(workspace, { id: row.feed_id, nonce: row.nonce }, deps.linkBase())
              : undefined,
          regeneratedAt: row.regenerated_at ?? undefined,
          member: row.member_email
            ? row.member_name
              ? `${row.member_name} (${row.member_email})`
              : row.member_email
            : null,
        })),
        ...(notice ? { notice } : {}),
        text: panelTextOf(request),
      }),
    });
  });

  panel.post('/settings/calendar-feeds/staffers/:stafferId/regenerate', settings, async (request, reply) => {
    const workspace = (await panelContextOf(request)).workspace;
    const stafferId = uuidParam(request, 'stafferId');
    // The form's key: a double click makes one new URL, the one the answer's page shows.
    return redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
      await regenerateFeed(uow, workspace, { stafferId }, deps.linkBase(), deps.clock.now());
      return `${FEEDS}?notice=regenerated`;
    });
  });

  panel.get('/account/calendar-feed', async (request, reply) => {
    const session = sessionOf(request);
    const workspace = (await panelContextOf(request)).workspace;
    const owner = { userId: session.user.id };
    const [feed, stafferId] = await Promise.all([
      showFeed(deps.db, workspace, owner, deps.linkBase()),
      linkedStafferOf(deps.db, workspace.id, session.user.id),
    ]);
    const notice = noticeOf(request);
    return reply.page({
      title: panelTextOf(request).t('nav.yourFeed'),
      islands: ['copy-text'],
      body: OwnFeedPage({
        csrf: reply.csrf(),
        workspaceName: workspace.name,
        url: feed?.url,
        regeneratedAt: feed?.regenerated_at,
        stafferName: stafferId ? await stafferNameOf(deps.db, workspace.id, stafferId) : undefined,
        ...(notice ? { notice } : {}),
        text: panelTextOf(request),
      }),
    });
  });

  panel.post('/account/calendar-feed/regenerate', async (request, reply) => {
    const session = sessionOf(request);
    const workspace = (await panelContextOf(request)).workspace;
    // The form's key: a double click makes one new URL, the one the answer's page shows.
    return redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
      await regenerateFeed(uow, workspace, { userId: session.user.id }, deps.linkBase(), deps.clock.now());
      return `${OWN_FEED}?notice=regenerated`;
    });
  });
}
