import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getExampleNumber } from 'libphonenumber-js';
import examples from 'libphonenumber-js/mobile/examples';
import { manageToken } from '../../bookings/manage-link.js';
import { ProviderUnavailable } from '../../payments/providers/payment-provider.js';
import { FORM_KEY_FIELD, newFormKey, redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { addDays, todayIn } from '../../platform/time/zone.js';
import { SeriesConflict } from '../../series/series.service.js';
import { EvaluationCache } from '../../slots/evaluation-cache.js';
import { minuteBucket } from '../../slots/slots-cache.js';
import type { WorkspaceRow } from '../../workspaces/workspaces.repository.js';
import {
  bookFromPage,
  bookRefusal,
  bookSeriesFromPage,
  type ContactDetails,
  checkDetails,
  type DetailErrors,
  defaultCountry,
  nearestFreeSlots,
  type PageBooking,
  pagePayment,
  pageRepeatOf,
  pageSeriesOffered,
  pageSlots,
  readDetails,
  textConsentAsked,
} from '../booking-page.service.js';
import { isMonth, rangeStart } from '../calendar-range.js';
import { acceptSolution, newChallenge } from '../proof-of-work.js';
import { locationPage, servicePage, stafferPage } from './choose.page.js';
import { confirmPage, detailsPage } from './details.page.js';
import { allowFormTargets, pageContext, requireWorkspace } from './page-context.js';
import { type Resolved, resolveSelection, type Selection, summaryOf } from './selection.js';
import { slotsPage } from './slots.page.js';
import { type PageContext, pageHref, readState } from './state.js';
import { widgetContextOf } from './widget-context.js';

type Params = { slug: string };
const evaluations = new EvaluationCache();
const TOKEN = /^[A-Za-z0-9_-]{22,64}$/;
const EMPTY: ContactDetails = {
  customer_phone: '',
  customer_first_name: '',
  customer_last_name: '',
  customer_email: '',
  booking_comment: '',
  booking_callback: undefined,
  text_consent: undefined,
};

export interface FlowLimits {
  /** Per IP, on every create. */
  create: { max: number; timeWindow: string };
  /** Per IP, on creates without a solved proof-of-work (browsers without JavaScript). */
  withoutProofOfWork: (request: FastifyRequest) => Promise<void>;
}

/** Steps 1-7 of the booking flow (location to confirmation): GET steps, POST confirm and book. */
export async function flowRoutes(app: FastifyInstance, deps: AppDeps, limits: FlowLimits): Promise<void> {
  app.get<{ Params: Params }>('/:slug', async (request, reply) => {
    const { workspace, catalog } = await requireWorkspace(deps, request.params.slug);
    const resolved = await resolveSelection(catalog, workspace, pageContextState(request.query));
    const zone = 'selection' in resolved ? resolved.selection.location.timezone : undefined;
    const ctx = pageContext(request, reply, workspace, zone);
    return renderStep(deps, ctx, workspace, resolved, deps.clock.now(), catalog.version);
  });

  app.get<{ Params: Params }>(
    '/:slug/altcha',
    { config: { rateLimit: { max: 30, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { workspace } = await requireWorkspace(deps, request.params.slug);
      return reply.header('cache-control', 'no-store').send(await newChallenge(workspace));
    },
  );

  // Contact details posted: errors show on the same form; valid details lead to the confirm step.
  app.post<{ Params: Params }>('/:slug/confirm', async (request, reply) => {
    const { workspace, catalog } = await requireWorkspace(deps, request.params.slug);
    const body = bodyOf(request);
    const resolved = await resolveSelection(catalog, workspace, pageContextState(body));
    if (resolved.step !== 'details')
      return reply.redirect(pageHref(workspace.slug, pageContextState(body)), 303);
    const ctx = pageContext(request, reply, workspace, resolved.selection.location.timezone, body);
    const details = readDetails(body);
    const formKey = formKeyOf(body);
    const summary = summaryOf(ctx, workspace, resolved.selection, resolved.start);
    if (filledHoneypot(body)) {
      return reply
        .status(422)
        .send(details_(ctx, workspace, resolved, details, {}, formKey, ctx.t.spamCheck));
    }
    const checked = checkDetails(workspace, resolved.selection.location, pageBooking(resolved, details));
    if (Object.keys(checked.errors).length > 0) {
      return reply.status(422).send(details_(ctx, workspace, resolved, details, checked.errors, formKey));
    }
    const payment = await pagePayment(deps.db, deps.config, workspace, resolved.selection.service);
    // Confirming a booking with money due redirects to the provider's hosted page.
    allowFormTargets(reply, ctx, payment?.checkoutOrigins ?? []);
    return confirmPage(ctx, {
      summary,
      values: { ...details, customer_phone: checked.phone! },
      formKey,
      challengeUrl: pageHref(workspace.slug, {}, {}, '/altcha'),
      payment,
      currency: workspace.currency,
      // A service the business marked bookable in series: "Repeat every … weeks, N times".
      series: pageSeriesOffered(resolved.selection.service, payment) ? {} : undefined,
    });
  });

  app.post<{ Params: Params }>(
    '/:slug/book',
    { config: { rateLimit: limits.create } },
    async (request, reply) => {
      const { workspace, catalog } = await requireWorkspace(deps, request.params.slug);
      const body = bodyOf(request);
      const resolved = await resolveSelection(catalog, workspace, pageContextState(body));
      if (resolved.step !== 'details')
        return reply.redirect(pageHref(workspace.slug, pageContextState(body)), 303);
      const ctx = pageContext(request, reply, workspace, resolved.selection.location.timezone, body);
      const details = readDetails(body);
      const formKey = formKeyOf(body);
      const booking = pageBooking(resolved, details);
      const checked = checkDetails(workspace, resolved.selection.location, booking);
      if (filledHoneypot(body) || Object.keys(checked.errors).length > 0) {
        const notice = filledHoneypot(body) ? ctx.t.spamCheck : undefined;
        return reply
          .status(422)
          .send(details_(ctx, workspace, resolved, details, checked.errors, formKey, notice));
      }
      const { selection, start } = resolved;
      const context = await widgetContextOf(request);
      const repeat = selection.service.series_bookable
        ? pageSeriesOffered(
            selection.service,
            await pagePayment(deps.db, deps.config, workspace, selection.service),
          )
          ? pageRepeatOf(body)
          : undefined
        : undefined;
      try {
        // The form's key (carried from the details step): a double submit is one booking, and
        // every answer leads to it. The anti-spam checks run under the key, so a repeat of a
        // submit that booked is answered before its (already used) proof-of-work is checked.
        return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
          const altcha = typeof body.altcha === 'string' ? body.altcha : '';
          if (altcha === '') {
            // No JavaScript, no proof-of-work: still bookable, under a much tighter per-IP limit.
            await limits.withoutProofOfWork(request);
          } else if (!(await acceptSolution(workspace, altcha))) {
            throw new SpamRefused();
          }
          const pageInput = {
            ...booking,
            service: selection.service,
            language: ctx.lang,
            ref: ctx.state.ref,
          };
          const { bookingId, checkoutUrl } = repeat
            ? {
                ...(await bookSeriesFromPage(
                  { ...context, db: uow.db, uow },
                  pageInput,
                  checked.phone!,
                  repeat,
                )),
                checkoutUrl: undefined,
              }
            : await bookFromPage({ ...context, db: uow.db, uow }, deps.config, pageInput, checked.phone!);
          // Money due: on to the provider's hosted page, which sends the customer back to the
          // manage page. Stored under the form's key, so a repeat submit lands on the same checkout.
          if (checkoutUrl) return checkoutUrl;
          const manage = `/manage/${manageToken(workspace, bookingId)}`;
          const state = { lang: ctx.state.lang, tz: ctx.state.tz, embed: ctx.state.embed };
          const href = pageHref(workspace.slug, state, {}, manage);
          return `${href}${href.includes('?') ? '&' : '?'}booked=1`;
        });
      } catch (error) {
        if (error instanceof SpamRefused) {
          return reply
            .status(422)
            .send(details_(ctx, workspace, resolved, details, {}, formKey, ctx.t.spamCheck));
        }
        if (error instanceof SeriesConflict) {
          // Nothing of the series was booked: the same step again, with each date's verdict.
          return reply.status(409).send(
            confirmPage(ctx, {
              summary: summaryOf(ctx, workspace, selection, start),
              values: { ...details, customer_phone: checked.phone! },
              formKey,
              challengeUrl: pageHref(workspace.slug, {}, {}, '/altcha'),
              series: {
                chosen: repeat,
                results: error.results.map((r) => ({ start: r.start, free: r.result !== 'conflict' })),
              },
            }),
          );
        }
        if (error instanceof ProviderUnavailable) {
          // Nothing was booked (the hold was released) and the key was not used: the same form
          // books once the provider answers again.
          return reply
            .status(503)
            .send(details_(ctx, workspace, resolved, details, {}, formKey, ctx.t.paymentUnavailable));
        }
        const refusal = bookRefusal(error);
        if (!refusal) throw error;
        if (refusal.kind === 'taken') {
          const alternatives = await nearestFreeSlots(
            deps.db,
            workspace,
            selection.location,
            {
              serviceId: selection.service.id,
              stafferId: selection.staffer?.id,
              zone: ctx.zone,
              wanted: start,
            },
            deps.clock.now(),
          );
          const page = details_(
            ctx,
            workspace,
            resolved,
            details,
            {},
            newFormKey(),
            ctx.t.slotTaken,
            alternatives,
          );
          return reply.status(409).send(page);
        }
        return reply.status(422).send(details_(ctx, workspace, resolved, details, refusal.errors, formKey));
      }
    },
  );
}

/** What the details step books: the selection's slot and the details typed. */
function pageBooking(resolved: Extract<Resolved, { step: 'details' }>, details: ContactDetails): PageBooking {
  const { selection, start } = resolved;
  return {
    locationId: selection.location.id,
    serviceId: selection.service.id,
    stafferId: selection.staffer?.id,
    stafferNeeded: selection.service.staffer_needed,
    start: new Date(start).toISOString(),
    details,
  };
}

/** A proof-of-work solution refused (made up, expired or used): the form again, with a notice. */
class SpamRefused extends Error {}

function renderStep(
  deps: Pick<AppDeps, 'db' | 'availability'>,
  ctx: PageContext,
  workspace: WorkspaceRow,
  resolved: Resolved,
  now: number,
  version: string,
): string | Promise<string> {
  const { slug, state } = ctx;
  switch (resolved.step) {
    case 'location':
      return locationPage(ctx, resolved.locations);
    case 'service':
      return servicePage(
        ctx,
        resolved.groups,
        workspace.currency,
        resolved.back ? pageHref(slug, state, { location: undefined, service: undefined }) : undefined,
      );
    case 'staffer':
      return stafferPage(
        ctx,
        resolved.staffers,
        resolved.offerAny,
        pageHref(slug, state, { service: undefined }),
      );
    case 'slot':
      return renderSlots(deps, ctx, workspace, resolved.selection, now, { version });
    case 'details':
      return details_(ctx, workspace, resolved, EMPTY, {}, newFormKey());
  }
}

/** The slot step: 7 days from `from` (default today) in the customer's zone, and one day's slots. */
export async function renderSlots(
  deps: Pick<AppDeps, 'db' | 'availability'>,
  ctx: PageContext,
  workspace: WorkspaceRow,
  selection: Selection,
  now: number,
  options: {
    notice?: string;
    slotHref?: (startTime: string) => string;
    back?: string;
    /** The step's own path after /book/<slug> (the manage link's reschedule has its own). */
    path?: string;
    heading?: string;
    /** The workspace's availability version this request has read already (its catalog's). */
    version?: string;
    /** Without a day in the URL, open on this one and its 7 days (the reschedule: the booked day). */
    near?: string;
    /** The booking being moved: its time is shown, and marked among the day's times. */
    current?: number;
  } = {},
): Promise<string> {
  const { db } = deps;
  const { notice, slotHref, back } = options;
  const { slug, state } = ctx;
  const today = todayIn(ctx.zone, now);
  const horizonEnd = todayIn(ctx.zone, now + workspace.horizon_days * 86_400_000);
  // The day to open on: the URL's, else the caller's (the reschedule opens on the booked day).
  const wanted = state.date ?? options.near;
  const from = rangeStart(today, horizonEnd, { from: state.from, date: wanted });
  const to = addDays(from, 6);
  // The page shares the engine's evaluations the way the API's time-slots route does: keyed by
  // the store's availability version and the minute of `now`, so a write shows at once.
  const minute = minuteBucket(now);
  const reuse =
    minute === undefined
      ? undefined
      : {
          cache: evaluations,
          stamp: `${minute}|${options.version ?? (await deps.availability.version(workspace.id))}`,
        };
  const answer = await pageSlots(
    db,
    workspace,
    selection.location,
    { service: selection.service, stafferId: selection.staffer?.id, zone: ctx.zone, from, to },
    now,
    reuse,
  );
  // A day asked for by name (a deep link, the month table) shows even without free times, so
  // the customer reads "no free times on this day" instead of silently getting another day.
  const date =
    answer.dates.find((d) => d.date === wanted)?.date ?? answer.dates.find((d) => d.slots.length > 0)?.date;
  const earlierFrom = addDays(from, -7) < today ? today : addDays(from, -7);
  return slotsPage(ctx, {
    title: options.heading ?? ctx.t.chooseTime,
    heading: options.heading ?? ctx.t.chooseTime,
    back:
      back ??
      (selection.stafferStep
        ? pageHref(slug, state, { staffer: undefined, from: undefined, date: undefined, month: undefined })
        : pageHref(slug, state, {
            service: undefined,
            staffer: undefined,
            from: undefined,
            date: undefined,
            month: undefined,
          })),
    days: answer.dates,
    date,
    earlier: from > today ? earlierFrom : undefined,
    later: addDays(from, 7) <= horizonEnd ? addDays(from, 7) : undefined,
    locationZone: selection.location.timezone,
    capacity: selection.service.capacity,
    notice,
    slotHref: slotHref ?? ((at) => pageHref(slug, state, { at, month: undefined })),
    path: options.path ?? '',
    // The booking flow's time step offers the waitlist (docs/waitlist.md); a reschedule does not.
    waitlistHref:
      options.path === undefined
        ? pageHref(
            slug,
            {
              location: selection.location.id,
              service: selection.service.id,
              staffer: selection.staffer?.id,
              lang: state.lang,
              tz: state.tz,
              embed: state.embed,
            },
            {},
            '/waitlist',
          )
        : undefined,
    current: options.current,
    month: {
      month: isMonth(state.month) ? state.month : (date ?? from).slice(0, 7),
      today,
      last: horizonEnd,
      selected: date,
      open: isMonth(state.month),
    },
  });
}

function details_(
  ctx: PageContext,
  workspace: WorkspaceRow,
  resolved: Extract<Resolved, { step: 'details' }>,
  values: ContactDetails,
  errors: DetailErrors,
  formKey: string,
  notice?: string,
  alternatives?: Awaited<ReturnType<typeof nearestFreeSlots>>,
): string {
  const country = defaultCountry(workspace, resolved.selection.location);
  const example = country ? getExampleNumber(country, examples)?.formatInternational() : undefined;
  return detailsPage(ctx, {
    summary: summaryOf(ctx, workspace, resolved.selection, resolved.start),
    form: workspace.booking_form,
    values,
    errors,
    formKey,
    back: pageHref(ctx.slug, ctx.state, { at: undefined }),
    // Isolated left to right: in Arabic text the groups of a number would run right to left.
    phoneHint: ctx.t.phoneHint(`\u2066${example ?? '+49 1512 3456789'}\u2069`),
    notice,
    alternatives,
    textConsent: textConsentAsked(workspace),
  });
}

const pageContextState = readState;

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** The key the form carries from the details step on (a fresh one if it lost it). */
function formKeyOf(body: Record<string, unknown>): string {
  const key = body[FORM_KEY_FIELD];
  return typeof key === 'string' && TOKEN.test(key) ? key : newFormKey();
}

function filledHoneypot(body: Record<string, unknown>): boolean {
  return typeof body.website === 'string' ? body.website.trim() !== '' : body.website !== undefined;
}
