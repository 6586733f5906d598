import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import { noticeOf, noticesIn } from '../../panel-kit/setup-parts.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { isUuid } from '../../platform/uuid.js';
import { leaveWaitlist, waitlistPanelView } from '../waitlist.service.js';
import { offerTimeByHand } from '../waitlist-offers.service.js';
import { WAITLIST, WaitlistPage } from './waitlist.page.js';

const access = { config: { panelAccess: 'bookings' as const } };
const NOTICES = { offered: 'waitlist.offeredNotice', removed: 'waitlist.removedNotice' } as const;

/** The panel's waitlist (docs/waitlist.md): the line per service and staffer, offer by hand, remove. */
export function waitlistPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  const filterOf = (query: unknown) => {
    const q = query as Record<string, unknown>;
    return {
      serviceId: isUuid(q.service) ? q.service : undefined,
      stafferId: isUuid(q.staffer) ? q.staffer : undefined,
    };
  };
  const backTo = (query: unknown, notice: string) => {
    const filter = filterOf(query);
    const params = new URLSearchParams();
    if (filter.serviceId) params.set('service', filter.serviceId);
    if (filter.stafferId) params.set('staffer', filter.stafferId);
    params.set('notice', notice);
    return `${WAITLIST}?${params}`;
  };

  async function show(
    request: Parameters<typeof panelContextOf>[0],
    reply: import('fastify').FastifyReply,
    error?: AppError,
  ) {
    const context = await panelContextOf(request);
    const filter = filterOf(request.query);
    const view = await waitlistPanelView({ workspace: context.workspace, db: deps.db }, filter);
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('waitlist.title'),
      status: error ? error.statusCode : 200,
      body: WaitlistPage({
        ...view,
        filter,
        zoneOf: (id) => view.zones.get(id) ?? 'UTC',
        csrf: reply.csrf(),
        ...noticeOf(request.query, noticesIn(text, NOTICES)),
        error: error ? errorText(error) : undefined,
        text,
      }),
    });
  }

  panel.get('/waitlist', access, (request, reply) => show(request, reply));

  panel.post('/waitlist/:entryUuid/offer', access, async (request, reply) => {
    const context = await panelContextOf(request);
    const entryId = uuidParam(request, 'entryUuid');
    const body = (request.body ?? {}) as Record<string, unknown>;
    try {
      return await redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
        await offerTimeByHand({ ...context, db: uow.db, uow }, entryId, {
          date: typeof body.date === 'string' ? body.date : '',
          time: typeof body.time === 'string' ? body.time : '',
        });
        return backTo(request.query, 'offered');
      });
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500 && error.statusCode !== 404)
        return show(request, reply, error);
      throw error;
    }
  });

  panel.post('/waitlist/:entryUuid/remove', access, async (request, reply) => {
    const context = await panelContextOf(request);
    const entryId = uuidParam(request, 'entryUuid');
    return redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
      await leaveWaitlist({ ...context, db: uow.db, uow }, entryId);
      return backTo(request.query, 'removed');
    });
  });
}

/** The refusal as the service words it, with its fields' messages. */
function errorText(error: AppError): string {
  const fields = Object.values(error.errors ?? {}).flat();
  return [error.message, ...fields].join(' ');
}
