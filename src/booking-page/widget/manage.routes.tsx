import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BookingView } from '../../bookings/bookings.repository.js';
import { bookingIdOfToken, manageToken } from '../../bookings/manage-link.js';
import { bookingCalendarFile } from '../../calendar-feeds/calendar-file.js';
import { notFound } from '../../errors.js';
import { findLiveLocation } from '../../locations/locations.repository.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { formatMoney } from '../../platform/money.js';
import { FormKey } from '../../platform/pages/form-key.js';
import { formatDateTime } from '../../platform/time/format.js';
import { parseInstant } from '../../platform/time/instant.js';
import { todayIn } from '../../platform/time/zone.js';
import type { WorkspaceRow } from '../../workspaces/workspaces.repository.js';
import {
  ChangeRefused,
  cancelByCustomer,
  cancelMoneyPreview,
  changeDeadline,
  changeRefusal,
  pageBooking,
  pageSeriesStarts,
  pageServices,
  pageStaffers,
  rescheduleByCustomer,
} from '../booking-page.service.js';
import { locationContact } from '../location-contact.js';
import type { Summary } from './details.page.js';
import { renderSlots } from './flow.routes.js';
import { renderPage } from './layout.js';
import { managePage } from './manage.page.js';
import { pageContext, requireWorkspace } from './page-context.js';
import { type PageContext, pageHref } from './state.js';
import { widgetContextOf } from './widget-context.js';

type Params = { slug: string; token: string };
/** A manage link stops working this long after the booking ended. */
const EXPIRES_AFTER_END_MS = 30 * 86_400_000;

/** The manage link: see, .ics, cancel, reschedule, until the cut-off. */
export async function manageRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  async function load(request: FastifyRequest<{ Params: Params }>) {
    const { workspace } = await requireWorkspace(deps, request.params.slug);
    const bookingId = bookingIdOfToken(workspace, request.params.token);
    const booking = bookingId ? await pageBooking(deps.db, workspace, bookingId) : undefined;
    // Invalid, forged, another workspace's, or long past: all the same 404.
    if (!booking || booking.end_time.getTime() + EXPIRES_AFTER_END_MS < deps.clock.now())
      throw notFound('Booking');
    const location = await findLiveLocation(deps.db, workspace.id, booking.location_id);
    return { workspace, booking, location };
  }

  async function show(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    options: { status?: number; notice?: { text: string; ok: boolean }; confirmCancel?: boolean } = {},
  ) {
    const { workspace, booking, location } = await load(request);
    const ctx = pageContext(request, reply, workspace, booking.timezone);
    const query = request.query as Record<string, unknown>;
    const money = (amount: number | undefined) =>
      amount === undefined ? undefined : formatMoney(amount, workspace.currency, ctx.locale);
    const cancelMoney = options.confirmCancel
      ? await cancelMoneyPreview(deps.db, workspace, booking, deps.clock.now())
      : {};
    const done =
      query.done === 'canceled'
        ? ctx.t.canceledNow
        : query.done === 'rescheduled'
          ? ctx.t.rescheduled
          : undefined;
    return reply.status(options.status ?? 200).send(
      managePage(ctx, {
        booking,
        summary: {
          ...summaryOfBooking(ctx, workspace, booking, location?.name ?? ''),
          contact: location ? locationContact(location, ctx.locale) : undefined,
        },
        token: request.params.token,
        manageUrl: absoluteUrl(
          deps,
          request,
          pageHref(workspace.slug, {}, {}, `/manage/${request.params.token}`),
        ),
        deadline: changeDeadline(workspace, booking),
        refusal: changeRefusal(workspace, booking, deps.clock.now()),
        booked: query.booked === '1',
        seriesStarts: query.booked === '1' ? await pageSeriesStarts(deps.db, workspace, booking) : undefined,
        notice: options.notice ?? (done ? { text: done, ok: true } : undefined),
        confirmCancel: options.confirmCancel ?? false,
        cancelMoney: {
          fee: money(cancelMoney.fee),
          refund: money(cancelMoney.refund),
          charge: money(cancelMoney.charge),
        },
      }),
    );
  }

  app.get<{ Params: Params }>('/:slug/manage/:token', (request, reply) => show(request, reply));
  app.get<{ Params: Params }>('/:slug/manage/:token/cancel', (request, reply) =>
    show(request, reply, { confirmCancel: true }),
  );

  app.post<{ Params: Params }>('/:slug/manage/:token/cancel', async (request, reply) => {
    const { workspace, booking } = await load(request);
    const context = await widgetContextOf(request);
    try {
      // The form's key: a double click cancels once, and both answers show the canceled booking.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await cancelByCustomer({ ...context, db: uow.db, uow }, booking);
        return doneHref(request, workspace, 'canceled');
      });
    } catch (error) {
      if (error instanceof ChangeRefused) return refuse(request, reply, workspace, booking);
      throw error;
    }
  });

  app.get<{ Params: Params }>('/:slug/manage/:token/calendar.ics', async (request, reply) => {
    const { workspace, booking, location } = await load(request);
    const manageUrl = absoluteUrl(
      deps,
      request,
      pageHref(workspace.slug, {}, {}, `/manage/${request.params.token}`),
    );
    const file = bookingCalendarFile(booking, {
      workspaceName: workspace.name,
      location: location ? [location.name, location.address_1, location.city].filter(Boolean).join(', ') : '',
      host: new URL(manageUrl).hostname,
      manageUrl,
    });
    return reply
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', 'attachment; filename="booking.ics"')
      .header('cache-control', 'no-store')
      .send(file);
  });

  // Reschedule: the same service and staffer; the slot list is the flow's, its links confirm here.
  app.get<{ Params: Params }>('/:slug/manage/:token/reschedule', async (request, reply) => {
    const { workspace, booking, location } = await load(request);
    if (!location || changeRefusal(workspace, booking, deps.clock.now()))
      return refuse(request, reply, workspace, booking);
    const ctx = pageContext(request, reply, workspace, booking.timezone);
    const serviceId = booking.lines[0]?.service_id;
    const service = (await pageServices(deps.db, workspace, location.id))
      .flatMap((g) => g.services)
      .find((s) => s.id === serviceId);
    if (!service) throw notFound('Service');
    const staffer = (await pageStaffers(deps.db, workspace, location.id, service.id)).find(
      (s) => s.id === booking.staffer_id,
    );
    const at =
      typeof (request.query as { at?: unknown }).at === 'string'
        ? (request.query as { at: string }).at
        : undefined;
    const manage = pageHref(workspace.slug, {}, {}, `/manage/${request.params.token}`);
    if (at !== undefined && parseInstant(at) !== undefined) {
      return renderPage(ctx, {
        title: ctx.t.reschedule,
        heading: ctx.t.reschedule,
        back: pageHref(
          workspace.slug,
          ctx.state,
          { at: undefined },
          `/manage/${request.params.token}/reschedule`,
        ),
        children: (
          <form
            method="post"
            action={pageHref(
              workspace.slug,
              { lang: ctx.state.lang, tz: ctx.state.tz, embed: ctx.state.embed },
              {},
              `/manage/${request.params.token}/reschedule`,
            )}
          >
            <p>
              {formatDateTime(booking.start_time.getTime(), ctx.zone, ctx.locale)} {ctx.arrow.forward}{' '}
              <strong>{formatDateTime(parseInstant(at)!, ctx.zone, ctx.locale)}</strong>
            </p>
            <input type="hidden" name="reserved_on" value={at} />
            <FormKey />
            <button type="submit">{ctx.t.reschedule}</button>
          </form>
        ),
      });
    }
    return renderSlots(
      deps,
      ctx,
      workspace,
      { location, service, staffer, severalLocations: false, stafferStep: false },
      deps.clock.now(),
      {
        heading: ctx.t.rescheduleTo,
        back: manage,
        // Open near what is booked (people move a booking by a day or two, rarely to this week),
        // and show it, so the new time is chosen knowing the old one.
        near: todayIn(ctx.zone, booking.start_time.getTime()),
        current: booking.start_time.getTime(),
        path: `/manage/${request.params.token}/reschedule`,
        slotHref: (start) =>
          pageHref(workspace.slug, ctx.state, { at: start }, `/manage/${request.params.token}/reschedule`),
      },
    );
  });

  app.post<{ Params: Params }>('/:slug/manage/:token/reschedule', async (request, reply) => {
    const { workspace, booking } = await load(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const reservedOn = typeof body.reserved_on === 'string' ? body.reserved_on : '';
    const context = await widgetContextOf(request);
    try {
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await rescheduleByCustomer({ ...context, db: uow.db, uow }, booking, reservedOn);
        return doneHref(request, workspace, 'rescheduled');
      });
    } catch (error) {
      if (!(error instanceof ChangeRefused)) throw error;
      if (error.reason !== 'taken') return refuse(request, reply, workspace, booking);
      const ctx = pageContext(request, reply, workspace, booking.timezone);
      return reply.status(409).send(
        renderPage(ctx, {
          title: ctx.t.reschedule,
          heading: ctx.t.reschedule,
          children: (
            <>
              <p class="notice" role="alert">
                {ctx.t.slotGone}
              </p>
              <a
                class="button"
                href={pageHref(workspace.slug, ctx.state, {}, `/manage/${request.params.token}/reschedule`)}
              >
                {ctx.t.rescheduleTo}
              </a>
            </>
          ),
        }),
      );
    }
  });

  /** Past the cut-off (or a final booking): the page again, with the reason, as a 409. */
  function refuse(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    _w: WorkspaceRow,
    _b: BookingView,
  ) {
    return show(request, reply, { status: 409 });
  }
}

function doneHref(
  request: FastifyRequest<{ Params: Params }>,
  workspace: WorkspaceRow,
  done: string,
): string {
  const query = request.query as Record<string, string | undefined>;
  const state = { lang: query.lang, tz: query.tz, embed: query.embed };
  const href = pageHref(workspace.slug, state, {}, `/manage/${request.params.token}`);
  return `${href}${href.includes('?') ? '&' : '?'}done=${done}`;
}

/**
 * The same base as the links in API answers and webhook bodies (AppDeps.linkBase), never the
 * request's Host: the calendar file's UID then names one host however the page was reached.
 */
function absoluteUrl(deps: AppDeps, _request: FastifyRequest, path: string): string {
  return `${deps.linkBase()}${path}`;
}

export function summaryOfBooking(
  ctx: PageContext,
  workspace: WorkspaceRow,
  booking: BookingView,
  locationName: string,
): Summary {
  const minutes = Math.round((booking.end_time.getTime() - booking.start_time.getTime()) / 60_000);
  const price = booking.lines.reduce((sum, line) => sum + line.price * line.quantity, 0);
  return {
    service: booking.lines.map((line) => line.name).join(', '),
    duration: ctx.t.minutes(minutes),
    price: formatMoney(price, workspace.currency, ctx.locale),
    staffer:
      booking.staffer_first_name === null
        ? undefined
        : `${booking.staffer_first_name} ${booking.staffer_last_name ?? ''}`.trim(),
    location: locationName,
    locationZone: booking.timezone,
    start: booking.start_time.getTime(),
  };
}

export { manageToken };
