import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getExampleNumber } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import { manageToken } from '../../bookings/manage-link.js';
import { AppError, notFound, OfferGone } from '../../errors.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { formatMoney } from '../../platform/money.js';
import { joinWaitlist } from '../../waitlist/waitlist.service.js';
import { claimOffer, offerForPage, withdrawTakenOffer } from '../../waitlist/waitlist-offers.service.js';
import type { WorkspaceRow } from '../../workspaces/workspaces.repository.js';
import { defaultCountry, pageLocation, pageServices, pageStaffers } from '../booking-page.service.js';
import { pageContext, requireWorkspace } from './page-context.js';
import { type PageContext, pageHref } from './state.js';
import { type JoinValues, joinedPage, joinPage, offerPage, WINDOW_ROWS } from './waitlist.page.js';
import { widgetContextOf } from './widget-context.js';

type OfferParams = { slug: string; token: string };

/**
 * The booking page's waitlist (docs/waitlist.md): the join form of a service (linked from the
 * time step), and an offer's claim page, `/book/<slug>/waitlist/offer/<token>`, whose "Book it"
 * books through the normal create (the waitlist service's claim).
 */
export async function waitlistPageRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  limits: { create: { max: number; timeWindow: string } },
): Promise<void> {
  async function chosen(request: FastifyRequest, reply: FastifyReply, source: unknown) {
    const { slug } = request.params as { slug: string };
    const { workspace } = await requireWorkspace(deps, slug);
    const query = source as Record<string, unknown>;
    const location = await pageLocation(deps.db, workspace, String(query.location ?? ''));
    if (!location) throw notFound('Location');
    const service = (await pageServices(deps.db, workspace, location.id))
      .flatMap((group) => group.services)
      .find((s) => s.id === query.service);
    if (!service) throw notFound('Service');
    const staffers = await pageStaffers(deps.db, workspace, location.id, service.id);
    const staffer = staffers.find((s) => s.id === query.staffer);
    const ctx = pageContext(request, reply, workspace, location.timezone, source);
    return { workspace, location, service, staffer, ctx };
  }

  function show(
    reply: FastifyReply,
    picked: Awaited<ReturnType<typeof chosen>>,
    values: JoinValues,
    errors: Record<string, string>,
    status = 200,
  ) {
    const { ctx, workspace, location, service, staffer } = picked;
    const country = defaultCountry(workspace, location);
    const example = country ? getExampleNumber(country, examples)?.formatInternational() : undefined;
    return reply.status(status).send(
      joinPage(ctx, {
        summary: {
          service: service.name,
          staffer: staffer ? `${staffer.first_name} ${staffer.last_name}`.trim() : undefined,
          location: location.name,
        },
        values,
        errors,
        back: pageHref(ctx.slug, ctx.state),
        phoneHint: ctx.t.phoneHint(`\u2066${example ?? '+49 1512 3456789'}\u2069`),
      }),
    );
  }

  app.get('/:slug/waitlist', async (request, reply) => {
    const picked = await chosen(request, reply, request.query);
    return show(reply, picked, EMPTY, {});
  });

  app.post('/:slug/waitlist', { config: { rateLimit: limits.create } }, async (request, reply) => {
    const body = bodyOf(request);
    // The page's state rides in the query of the form's action.
    const picked = await chosen(request, reply, request.query);
    const { ctx, workspace, location, service, staffer } = picked;
    const values = joinValues(body);
    const context = await widgetContextOf(request);
    try {
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await joinWaitlist(
          { ...context, db: uow.db, uow },
          {
            location_uuid: location.id,
            service_uuid: service.id,
            staffer_uuid: staffer?.id ?? null,
            customer_phone: values.customer_phone,
            customer_first_name: values.customer_first_name,
            customer_last_name: values.customer_last_name,
            customer_email: values.customer_email,
            any_time: values.any_time,
            windows: values.any_time ? [] : values.windows.filter((w) => w.date || w.from || w.to),
            language: ctx.lang,
            source: 'booking_page',
          },
          { defaultCountry: defaultCountry(workspace, location) },
        );
        return pageHref(
          workspace.slug,
          { lang: ctx.state.lang, embed: ctx.state.embed },
          {},
          '/waitlist/joined',
        );
      });
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 422 && error.errors)
        return show(reply, picked, values, wordedErrors(ctx, error.errors), 422);
      throw error;
    }
  });

  app.get('/:slug/waitlist/joined', async (request, reply) => {
    const { slug } = request.params as { slug: string };
    const { workspace } = await requireWorkspace(deps, slug);
    return reply.send(joinedPage(pageContext(request, reply, workspace, undefined)));
  });

  async function showOffer(
    request: FastifyRequest<{ Params: OfferParams }>,
    reply: FastifyReply,
    notice?: { text: string; ok: boolean },
    status = 200,
  ) {
    const { workspace } = await requireWorkspace(deps, request.params.slug);
    const offer = await offerForPage({ workspace, db: deps.db }, request.params.token);
    if (!offer) throw notFound('Offer');
    const ctx = pageContext(request, reply, workspace, offer.timezone);
    const open = offer.state === 'open' && deps.clock.now() < offer.held_until.getTime();
    return reply.status(status).send(
      offerPage(ctx, {
        summary: {
          service: offer.service_name,
          duration: ctx.t.minutes(offer.duration_minutes),
          price: formatMoney(offer.price, workspace.currency, ctx.locale),
          staffer: offer.staffer_first_name
            ? `${offer.staffer_first_name} ${offer.staffer_last_name ?? ''}`.trim()
            : undefined,
          location: offer.location_name,
          locationZone: offer.timezone,
          start: offer.starts_at.getTime(),
        },
        heldUntil: offer.held_until.getTime(),
        open,
        notice: notice ?? (open ? undefined : { text: ctx.t.offerGone, ok: false }),
        action: offerHref(workspace, ctx, request.params.token),
      }),
    );
  }

  app.get<{ Params: OfferParams }>('/:slug/waitlist/offer/:token', (request, reply) =>
    showOffer(request, reply),
  );

  app.post<{ Params: OfferParams }>('/:slug/waitlist/offer/:token', async (request, reply) => {
    const { workspace } = await requireWorkspace(deps, request.params.slug);
    const context = await widgetContextOf(request);
    const query = request.query as Record<string, string | undefined>;
    try {
      // The form's key: a double click books once, and both answers lead to the booking.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        const booking = await claimOffer({ ...context, db: uow.db, uow }, request.params.token);
        const href = pageHref(
          workspace.slug,
          { lang: query.lang, tz: query.tz, embed: query.embed },
          {},
          `/manage/${manageToken(workspace, booking.id)}`,
        );
        return `${href}${href.includes('?') ? '&' : '?'}booked=1`;
      });
    } catch (error) {
      const ctx = pageContext(request, reply, workspace, undefined);
      if (error instanceof OfferGone)
        return showOffer(request, reply, { text: ctx.t.offerGone, ok: false }, 410);
      if (error instanceof AppError && error.code === 'offer_time_taken') {
        // The claim (and the form's key) rolled back: the offer is withdrawn on its own.
        await withdrawTakenOffer({ ...context, db: deps.db, uow: deps.uow }, request.params.token);
        return showOffer(request, reply, { text: ctx.t.offerTaken, ok: false }, 409);
      }
      throw error;
    }
  });
}

const EMPTY: JoinValues = {
  customer_phone: '',
  customer_first_name: '',
  customer_last_name: '',
  customer_email: '',
  any_time: false,
  windows: [],
};

function offerHref(workspace: WorkspaceRow, ctx: PageContext, token: string): string {
  return pageHref(
    workspace.slug,
    { lang: ctx.state.lang, tz: ctx.state.tz, embed: ctx.state.embed },
    {},
    `/waitlist/offer/${token}`,
  );
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function text(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value.trim().slice(0, 255) : '';
}

function joinValues(body: Record<string, unknown>): JoinValues {
  return {
    customer_phone: text(body, 'customer_phone'),
    customer_first_name: text(body, 'customer_first_name'),
    customer_last_name: text(body, 'customer_last_name'),
    customer_email: text(body, 'customer_email'),
    any_time: body.any_time === '1' || body.any_time === 'on',
    windows: Array.from({ length: WINDOW_ROWS }, (_, i) => ({
      date: text(body, `window_date_${i}`),
      from: text(body, `window_from_${i}`),
      to: text(body, `window_to_${i}`),
    })),
  };
}

/** The service's field errors in the page's words. */
function wordedErrors(ctx: PageContext, errors: Record<string, string[]>): Record<string, string> {
  const worded: Record<string, string> = {};
  for (const field of Object.keys(errors)) {
    worded[field] =
      field === 'customer_phone'
        ? ctx.t.invalidPhone
        : field === 'customer_email'
          ? ctx.t.invalidEmail
          : field === 'windows'
            ? ctx.t.waitlistNeedTime
            : ctx.t.invalidField;
  }
  return worded;
}
