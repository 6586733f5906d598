import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, type FormState, str } from '../../panel-kit/forms.js';
import { type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { refusalOf } from '../../panel-kit/panel-errors.js';
import { uuidParam } from '../../panel-kit/params.js';
import { noticeOf, noticesIn } from '../../panel-kit/setup-parts.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { isUuid } from '../../platform/uuid.js';
import { can } from '../../users/roles.js';
import { MAX_WINDOWS } from '../waitlist.rules.js';
import {
  type JoinInput,
  joinWaitlist,
  leaveWaitlist,
  updateWaitlistSettings,
  waitlistPanelView,
  waitlistSettings,
} from '../waitlist.service.js';
import { offerTimeByHand } from '../waitlist-offers.service.js';
import { WAITLIST, WaitlistPage } from './waitlist.page.js';

const access = { config: { panelAccess: 'bookings' as const } };
const NOTICES = {
  offered: 'waitlist.offeredNotice',
  removed: 'waitlist.removedNotice',
  added: 'waitlist.addedNotice',
  saved: 'waitlist.settingsSavedNotice',
} as const;

/**
 * The panel's waitlist (docs/waitlist.md): the line per service and staffer, add a person (the
 * API's join), offer by hand, remove; the automatic filling of group-class seats (settings role).
 */
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
    addForm: FormState = emptyForm(),
  ) {
    const context = await panelContextOf(request);
    const filter = filterOf(request.query);
    const view = await waitlistPanelView({ workspace: context.workspace, db: deps.db }, filter);
    const text = panelTextOf(request);
    const status = error ? error.statusCode : Object.keys(addForm.errors).length > 0 ? 422 : 200;
    return reply.page({
      title: text.t('waitlist.title'),
      status,
      body: WaitlistPage({
        ...view,
        filter,
        addForm,
        settings: can(sessionOf(request).workspace.role, 'settings')
          ? waitlistSettings(context.workspace)
          : undefined,
        zoneOf: (id) => view.zones.get(id) ?? 'UTC',
        csrf: reply.csrf(),
        ...noticeOf(request.query, noticesIn(text, NOTICES)),
        error: error ? errorText(error, panelTextOf(request).t) : undefined,
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

  panel.post('/waitlist/add', access, async (request, reply) => {
    const context = await panelContextOf(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const values: FormState['values'] = {};
    for (const [key, value] of Object.entries(body))
      if (typeof value === 'string' && key !== '_csrf' && key !== 'idempotency_key') values[key] = value;
    try {
      return await redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
        await joinWaitlist({ ...context, db: uow.db, uow }, joinInputOf(body));
        return backTo(request.query, 'added');
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return show(request, reply, undefined, {
        values,
        errors: formErrorsOf(error, panelTextOf(request).t),
      });
    }
  });

  panel.post(
    '/waitlist/settings',
    { config: { panelAccess: 'settings' as const } },
    async (request, reply) => {
      const context = await panelContextOf(request);
      const body = (request.body ?? {}) as Record<string, unknown>;
      return redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
        await updateWaitlistSettings(
          { ...context, db: uow.db, uow },
          { auto_fill_group_seats: str(body, 'auto_fill_group_seats') === 'on' },
        );
        return backTo(request.query, 'saved');
      });
    },
  );

  panel.post('/waitlist/:entryUuid/remove', access, async (request, reply) => {
    const context = await panelContextOf(request);
    const entryId = uuidParam(request, 'entryUuid');
    return redirectOnce(request, reply, deps.uow, context.workspace.id, async (uow) => {
      await leaveWaitlist({ ...context, db: uow.db, uow }, entryId);
      return backTo(request.query, 'removed');
    });
  });
}

/**
 * The add form as the API's join body: the wanted-time rows the staffer filled (a row with any of
 * its three fields given), or any time.
 */
function joinInputOf(body: Record<string, unknown>): JoinInput {
  const windows: { date: string; from: string; to: string }[] = [];
  for (let i = 0; i < MAX_WINDOWS; i++) {
    const row = {
      date: str(body, `windows.${i}.date`),
      from: str(body, `windows.${i}.from`),
      to: str(body, `windows.${i}.to`),
    };
    if (row.date !== '' || row.from !== '' || row.to !== '') windows.push(row);
  }
  const staffer = str(body, 'staffer_uuid');
  return {
    location_uuid: str(body, 'location_uuid'),
    service_uuid: str(body, 'service_uuid'),
    staffer_uuid: isUuid(staffer) ? staffer : null,
    customer_phone: str(body, 'customer_phone'),
    customer_first_name: str(body, 'customer_first_name'),
    customer_last_name: str(body, 'customer_last_name'),
    customer_email: str(body, 'customer_email'),
    any_time: str(body, 'any_time') === 'on',
    windows,
    source: 'panel',
  };
}

/** The refusal in the reader's language: a refused form's fields, or what the code says. */
function errorText(error: AppError, t: PanelText['t']): string {
  if (error.code === 'validation_failed') return Object.values(formErrorsOf(error, t)).flat().join(' ');
  return refusalOf(error, t);
}
