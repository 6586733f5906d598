import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  applyOutsideChange,
  ignoreOutsideChange,
  outsideChangeOfBooking,
} from '../../calendar-sync/calendar-readback.service.js';
import {
  AppError,
  type FieldErrors,
  type FieldIssue,
  fieldIssueOf,
  InvalidInput,
  REQUIRED,
  SlotBlockedOutside,
  SlotUnavailable,
  validationFailed,
  withIssues,
} from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { type FormState, list, str } from '../../panel-kit/forms.js';
import { type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { refusalOf } from '../../panel-kit/panel-errors.js';
import { uuidParam } from '../../panel-kit/params.js';
import { listAccountsAtLocation } from '../../payment-accounts/payment-accounts.service.js';
import { refundableOf, settlementPreview } from '../../payments/payments.service.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { throwIfInvalid } from '../../platform/http/validation.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import { formatMoney } from '../../platform/money.js';
import { localDateOf, toUtcIso } from '../../platform/time/zone.js';
import { listLocationResources } from '../../resources/resources.service.js';
import { SeriesCancelBody, SeriesChangeBody } from '../../series/series.schemas.js';
import { cancelSeries, changeSeries, readSeries, SeriesConflict } from '../../series/series.service.js';
import { listLocationServicesPage } from '../../services/services.service.js';
import { listLocationStaffersPage } from '../../staffers/staffers.service.js';
import { listStatuses } from '../../statuses/statuses.service.js';
import { can } from '../../users/roles.js';
import { listTeam } from '../../users/users.service.js';
import type { WorkspaceRow } from '../../workspaces/workspaces.repository.js';
import {
  addPublicNote,
  cancelBooking,
  changeResources,
  changeServices,
  changeStaffer,
  completeBooking,
  moveBooking,
  moveToUnit,
  setStatus,
} from '../booking-changes.service.js';
import { freeTimesOfBooking, nearestSlots } from '../booking-free-times.service.js';
import { bookingHistory, getBookingView } from '../booking-reads.service.js';
import { presentBooking } from '../bookings.presenter.js';
import type { BookingView } from '../bookings.repository.js';
import { parseReschedule } from '../bookings.rules.js';
import {
  CancelBody,
  CompleteBody,
  PublicNoteBody,
  ResourcesBody,
  ServicesBody,
  StafferBody,
  StatusBody,
} from '../bookings.schemas.js';
import { type BookingContext, overridingOutsideBusy } from '../bookings.service.js';
import {
  type BookingForm,
  BookingPage,
  bookingPath,
  type Choice,
  type FreeTime,
  type Problem,
} from './booking.page.js';
import { describeHistory } from './booking-history.view.js';
import { decimalOf, minorOf, slotChoices, wallDate, wallTime, wallTimeInstant } from './booking-times.js';

const access = { config: { panelAccess: 'bookings' as const } };
const ALL = { page: 1, perPage: 500, offset: 0 };

/** A panel path to go back to after a change (the calendar's own URL); anything else is ignored. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function safeReturn(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (!value.startsWith('/panel/') || value.startsWith('//') || /[\\\s]/.test(value)) return undefined;
  return value;
}

export function withNotice(path: string, notice: string): string {
  return `${path}${path.includes('?') ? '&' : '?'}notice=${notice}`;
}

/** What a 409 slot_unavailable says here: the rule the time breaks, or that someone was faster. */
export function conflictMessage(error: SlotUnavailable, text: PanelText): string {
  if (error.reason === 'taken') return text.t('booking.taken');
  return text.t('booking.ruleBroken', { reason: refusalOf(error, text.t) });
}

export interface PageExtra {
  status?: number;
  active?: { form: BookingForm; state: FormState };
  problem?: Problem;
  notice?: string;
  returnTo?: string | undefined;
}

/**
 * A booking's page and its forms. Each form posts to its own route, which reads
 * the fields, builds the body the API route takes, checks it with the same schema, and calls the
 * same service with the panel user as the actor: the same rules, history and webhooks.
 */
export function bookingsPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  const workspaceOf = async (request: FastifyRequest) => (await panelContextOf(request)).workspace;

  async function showBooking(
    request: FastifyRequest,
    reply: FastifyReply,
    workspace: WorkspaceRow,
    bookingId: string,
    extra: PageExtra = {},
  ) {
    const view = await getBookingView(deps.db, workspace.id, bookingId);
    const booking = presentBooking(view, workspace, deps.linkBase());
    const zone = view.timezone;
    const start = new Date(view.start_time).getTime();
    const end = new Date(view.end_time).getTime();
    const [staffers, services, units, statuses, accounts, members, history, outside] = await Promise.all([
      listLocationStaffersPage(deps.db, workspace.id, view.location_id, ALL),
      listLocationServicesPage(deps.db, workspace.id, view.location_id, ALL),
      listLocationResources(deps.db, workspace.id, view.location_id, ALL),
      listStatuses(deps.db, workspace.id),
      listAccountsAtLocation(deps.db, workspace.id, view.location_id),
      listTeam(deps.db, workspace.id),
      bookingHistory(deps.db, workspace.id, bookingId),
      outsideChangeOfBooking(deps.db, workspace.id, bookingId),
    ]);
    const personName = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();
    const stafferNames = new Map(staffers.rows.map((s) => [s.id, personName(s.first_name, s.last_name)]));
    if (view.staffer_id !== null && view.staffer_first_name !== null)
      stafferNames.set(view.staffer_id, personName(view.staffer_first_name, view.staffer_last_name));
    const serviceNames = new Map(services.rows.map((s) => [s.id, s.name]));
    for (const line of view.lines)
      if (!serviceNames.has(line.service_id)) serviceNames.set(line.service_id, line.name);
    const statusNames = new Map(statuses.map((s) => [s.uuid, s.name]));
    statusNames.set(view.status_id, view.status_name);
    const staffersChoices: Choice[] = [...stafferNames].map(([value, label]) => ({ value, label }));
    const open = Math.max(0, booking.order.total - booking.order.amount_paid);
    const text = panelTextOf(request);
    // Refunds are for owners and admins (the settings permission), when a provider took money.
    const role = sessionOf(request).workspace?.role;
    const refundable =
      role && can(role, 'settings') ? await refundableOf(deps.db, workspace.id, bookingId) : 0;
    const final = booking.is_canceled || booking.is_completed;
    const noShow = final ? undefined : await noShowOf(workspace, view, start, text.locale);
    const series = view.series_id
      ? await seriesCardOf(workspace.id, view.series_id, view.id, text)
      : undefined;
    return reply.page({
      title: text.t('booking.title', {
        services: booking.ordered_services.map((line) => line.name).join(' + '),
      }),
      status: extra.status ?? 200,
      body: BookingPage({
        booking,
        zone,
        localDate: localDateOf(start, zone),
        localTime: wallTime(start, zone),
        when: `${wallDate(start, zone, text.lang === 'en' ? undefined : text.locale)}, ${wallTime(start, zone)} – ${wallTime(end, zone)}`,
        paymentHoldUntil: view.payment_hold_until
          ? wallTime(new Date(view.payment_hold_until).getTime(), zone)
          : undefined,
        history: describeHistory(
          history,
          {
            staffers: stafferNames,
            services: serviceNames,
            statuses: statusNames,
            accounts: new Map(accounts.map((a) => [a.id, a.name])),
            users: new Map(members.map((m) => [m.user_id, m.name || m.email])),
          },
          {
            zone,
            currency: workspace.currency,
            locale: text.locale,
            userId: sessionOf(request).user.id,
            text,
          },
        ),
        staffers: staffersChoices,
        services: services.rows.map((s) => ({ value: s.id, label: `${s.name} (${s.duration_minutes} min)` })),
        resources: units.rows.map((u) => ({ value: u.id, label: `${u.name} (${u.type})` })),
        statuses: statuses.filter((s) => !s.is_final).map((s) => ({ value: s.uuid, label: s.name })),
        accounts: accounts.map((a) => ({ value: a.id, label: a.name })),
        openAmount: decimalOf(open, workspace.currency),
        currency: workspace.currency,
        csrf: reply.csrf(),
        notice: extra.notice,
        active: extra.active,
        problem: extra.problem,
        returnTo: extra.returnTo,
        outsideChange: outside
          ? {
              kind: outside.kind,
              name: outside.stafferName,
              when:
                outside.start === null
                  ? ''
                  : localDateOf(outside.start, zone) === localDateOf(start, zone)
                    ? wallTime(outside.start, zone)
                    : `${wallDate(outside.start, zone, text.lang === 'en' ? undefined : text.locale)}, ${wallTime(outside.start, zone)}`,
            }
          : undefined,
        ...(refundable > 0
          ? {
              refund: {
                left: decimalOf(refundable, workspace.currency),
                action: `${bookingPath(bookingId)}/refund`,
              },
            }
          : {}),
        noShow,
        series,
        text,
      }),
    });
  }

  /** The series card of an occurrence's page: the rule in words, every occurrence with its state. */
  async function seriesCardOf(workspaceId: string, seriesId: string, bookingId: string, text: PanelText) {
    const series = await readSeries(deps.db, workspaceId, seriesId);
    const zone = series.timezone;
    const locale = text.lang === 'en' ? undefined : text.locale;
    const { frequency, interval, time } = series.recurrence;
    const rule = text.t(
      frequency === 'daily'
        ? 'series.ruleDaily'
        : frequency === 'weekly'
          ? 'series.ruleWeekly'
          : 'series.ruleMonthly',
      { count: interval, time },
    );
    const current = series.occurrences.find((o) => o.booking_uuid === bookingId);
    return {
      rule,
      // The series' changes start at this booking: offered while it is open, as its own forms are.
      open: current !== undefined && !current.is_canceled && !current.is_completed,
      occurrences: series.occurrences.map((o) => {
        const at = Date.parse(o.start_time);
        return {
          href: bookingPath(o.booking_uuid),
          when: `${wallDate(at, zone, locale)}, ${wallTime(at, zone)}`,
          status: o.status.name,
          current: o.booking_uuid === bookingId,
          canceled: o.is_canceled,
        };
      }),
    };
  }

  /**
   * The No-show form of an open booking once it has started (before, the customer may still come): with
   * what marking it would do with the money the provider holds, by the service's policy.
   */
  async function noShowOf(workspace: WorkspaceRow, view: BookingView, start: number, locale: string) {
    const now = deps.clock.now();
    if (start > now) return undefined;
    const settlement = await settlementPreview(deps.db, workspace.id, view.id, 'didnt_come', now);
    if (!settlement || settlement.fee === 0) return {};
    const money = (amount: number) =>
      amount > 0 ? formatMoney(amount, workspace.currency, locale) : undefined;
    return {
      fee: money(settlement.fee),
      kept: money(settlement.keep),
      charged: money(settlement.charge),
      refunded: money(settlement.refund),
    };
  }

  /** Free times of the booking's services that day, for `stafferId`, nearest to `asked`. */
  async function freeTimesAround(
    workspace: WorkspaceRow,
    view: BookingView,
    stafferId: string | undefined,
    date: string,
    asked: number,
  ): Promise<FreeTime[]> {
    const slots = await freeTimesOfBooking(deps.db, {
      workspace,
      view,
      stafferId,
      date,
      now: deps.clock.now(),
    });
    const nearest = new Set(nearestSlots(slots, asked));
    return slotChoices(slots)
      .filter((choice) => nearest.has(choice.slot))
      .map((choice) => ({ date, time: choice.value, label: choice.label, stafferId }));
  }

  /**
   * One form's POST: run `work` (which throws the services' AppErrors), then 303 with a notice.
   * A 422 shows the page again with the form's values and errors; a 409 with its reason and, for
   * a taken time, the free ones (`freeTimes`). Anything else is the panel's error page.
   */
  function changeRoute(
    action: BookingForm | 'unit',
    handle: (input: { request: FastifyRequest; workspace: WorkspaceRow; view: BookingView }) => {
      values: FormState['values'];
      returnTo?: string | undefined;
      /** The change, on the unit of work of `ctx`; answers the page to redirect to. */
      work: (ctx: BookingContext) => Promise<string>;
      freeTimes?: () => Promise<FreeTime[]>;
      /** When only the staffer's own calendar refuses it: the same change, to send "anyway". */
      override?: Problem['override'];
      /** The page's form that shows this post's errors, when it has none of its own. */
      shownAs?: BookingForm;
    },
  ) {
    panel.post(`/bookings/:bookingUuid/${action}`, access, async (request, reply) => {
      const bookingId = uuidParam(request, 'bookingUuid');
      const workspace = await workspaceOf(request);
      const view = await getBookingView(deps.db, workspace.id, bookingId);
      const { values, returnTo, work, freeTimes, override, shownAs } = handle({ request, workspace, view });
      const form: BookingForm = shownAs ?? (action === 'unit' ? 'move' : action);
      const context = await panelContextOf(request);
      try {
        // The form's key: a repeated submit gets the first one's redirect and changes nothing.
        return await redirectOnce(request, reply, deps.uow, workspace.id, (uow) =>
          // Reads in the key's transaction too: on the embedded store another would wait for it.
          work({ ...context, db: uow.db, uow }),
        );
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        if (error.statusCode === 422 && error.errors) {
          return showBooking(request, reply, workspace, bookingId, {
            status: 422,
            active: { form, state: { values, errors: formErrorsOf(error, panelTextOf(request).t) } },
            returnTo,
          });
        }
        if (error instanceof SeriesConflict) {
          const text = panelTextOf(request);
          const refused = error.results
            .filter((r) => r.result === 'conflict')
            .map(
              (r) =>
                `${wallDate(r.start, error.timezone, text.lang === 'en' ? undefined : text.locale)}, ${wallTime(r.start, error.timezone)}`,
            );
          return showBooking(request, reply, workspace, bookingId, {
            status: 409,
            active: { form, state: { values, errors: {} } },
            problem: { message: text.t('series.conflict', { dates: refused.join('; ') }) },
            returnTo,
          });
        }
        if (error instanceof SlotBlockedOutside && override) {
          return showBooking(request, reply, workspace, bookingId, {
            status: 409,
            active: { form, state: { values, errors: {} } },
            problem: { message: panelTextOf(request).t('booking.outsideBusy'), override },
            returnTo,
          });
        }
        if (error.statusCode === 409) {
          const slotTaken = error instanceof SlotUnavailable;
          const problem: Problem =
            slotTaken && freeTimes
              ? { message: conflictMessage(error, panelTextOf(request)), times: await freeTimes() }
              : {
                  message: slotTaken
                    ? panelTextOf(request).t('booking.notFree')
                    : refusalOf(error, panelTextOf(request).t),
                };
          return showBooking(request, reply, workspace, bookingId, {
            status: 409,
            active: { form, state: { values, errors: {} } },
            problem,
            returnTo,
          });
        }
        throw error;
      }
    });
  }

  panel.get('/bookings/:bookingUuid', access, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    return showBooking(request, reply, await workspaceOf(request), uuidParam(request, 'bookingUuid'), {
      notice: typeof query.notice === 'string' ? query.notice : undefined,
      returnTo: safeReturn(query.return_to),
    });
  });

  // "Move to…": a date and wall time in the location's zone, and maybe another staffer. The
  // calendar's drag posts the same form with its own URL as return_to.
  changeRoute('move', ({ request, workspace, view }) => {
    const values = {
      date: str(request.body, 'date').trim(),
      reserved_on: str(request.body, 'reserved_on').trim(),
      staffer_uuid: str(request.body, 'staffer_uuid').trim(),
      return_to: str(request.body, 'return_to'),
    };
    const returnTo = safeReturn(values.return_to);
    const at = wallTimeInstant(view.timezone, values.date, values.reserved_on, 'reserved_on');
    const body = {
      reserved_on: at.instant === undefined ? '' : toUtcIso(at.instant),
      staffer_uuid: values.staffer_uuid || undefined,
    };
    return {
      values,
      returnTo,
      override: {
        action: 'move',
        fields: {
          date: values.date,
          reserved_on: values.reserved_on,
          staffer_uuid: values.staffer_uuid || (view.staffer_id ?? ''),
          return_to: values.return_to,
        },
      },
      work: async (context) => {
        // "Move anyway", after the warning that only the staffer's own calendar blocks the time.
        const ctx = str(request.body, 'override_busy') === 'yes' ? overridingOutsideBusy(context) : context;
        // PUT /reschedule's input path, after what this form's own inputs (a date and a wall
        // time) say: they name what the person typed.
        const errors: FieldErrors = { ...at.errors };
        const issues: Record<string, FieldIssue> = {};
        try {
          parseReschedule(body);
        } catch (error) {
          if (!(error instanceof InvalidInput)) throw error;
          for (const [field, messages] of Object.entries(error.errors ?? {})) {
            if (errors[field]) continue;
            errors[field] = messages;
            if (error.issues[field]) issues[field] = fieldIssueOf(error.issues[field]);
          }
        }
        if (Object.keys(errors).length > 0) throw validationFailed(errors, issues);
        await moveBooking(ctx, view.id, body.reserved_on, body.staffer_uuid);
        return withNotice(returnTo ?? bookingPath(view.id), 'moved');
      },
      freeTimes: () =>
        freeTimesAround(
          workspace,
          view,
          values.staffer_uuid || (view.staffer_id ?? undefined),
          values.date,
          at.instant!,
        ),
    };
  });

  // The calendar's view by resource: a block dropped on another unit's column, maybe at another
  // time (docs/resources.md). A refusal shows the booking's page with the reason, as a refused
  // drag in the view by staffer does; its errors go with the "Move to…" form.
  changeRoute('unit', ({ request, view }) => {
    const values = {
      date: str(request.body, 'date').trim(),
      reserved_on: str(request.body, 'reserved_on').trim(),
      from_resource: str(request.body, 'from_resource').trim(),
      to_resource: str(request.body, 'to_resource').trim(),
      return_to: str(request.body, 'return_to'),
    };
    const returnTo = safeReturn(values.return_to);
    // No time sent: the block keeps its time (a drop straight across).
    const at = values.reserved_on
      ? wallTimeInstant(view.timezone, values.date, values.reserved_on, 'reserved_on')
      : undefined;
    return {
      values,
      returnTo,
      shownAs: 'move',
      work: async (ctx) => {
        const errors: FieldErrors = { ...at?.errors };
        if (!UUID.test(values.from_resource)) errors.from_resource = ['Choose the resource it leaves.'];
        if (!UUID.test(values.to_resource)) errors.to_resource = ['Choose the resource it goes to.'];
        if (Object.keys(errors).length > 0) throw validationFailed(errors);
        await moveToUnit(ctx, view.id, {
          fromUnit: values.from_resource,
          toUnit: values.to_resource,
          reservedOn: at?.instant === undefined ? undefined : toUtcIso(at.instant),
        });
        return withNotice(returnTo ?? bookingPath(view.id), 'moved');
      },
    };
  });

  changeRoute('staffer', ({ request, workspace, view }) => {
    const values = { staffer_uuid: str(request.body, 'staffer_uuid').trim() };
    const body = { staffer_uuid: values.staffer_uuid };
    const start = new Date(view.start_time).getTime();
    return {
      values,
      work: async (ctx) => {
        throwIfInvalid(schemaErrorsOf(StafferBody, body), {});
        await changeStaffer(ctx, view.id, body.staffer_uuid);
        return withNotice(bookingPath(view.id), 'staffer');
      },
      freeTimes: () =>
        freeTimesAround(workspace, view, body.staffer_uuid, localDateOf(start, view.timezone), start),
    };
  });

  changeRoute('services', ({ request, view }) => {
    const values = { service_uuids: list(request.body, 'service_uuids') };
    const body = { service_uuids: values.service_uuids };
    return {
      values,
      work: async (ctx) => {
        const errors = schemaErrorsOf(ServicesBody, body);
        if (body.service_uuids.length === 0) errors.service_uuids = ['Choose at least one service.'];
        throwIfInvalid(errors, {});
        await changeServices(ctx, view.id, body.service_uuids);
        return withNotice(bookingPath(view.id), 'services');
      },
    };
  });

  changeRoute('resources', ({ request, view }) => {
    const values = { resource_uuids: list(request.body, 'resource_uuids') };
    const body = { resource_uuids: values.resource_uuids };
    return {
      values,
      work: async (ctx) => {
        throwIfInvalid(schemaErrorsOf(ResourcesBody, body), {});
        await changeResources(ctx, view.id, body.resource_uuids);
        return withNotice(bookingPath(view.id), 'resources');
      },
    };
  });

  changeRoute('status', ({ request, view }) => {
    const values = { status_uuid: str(request.body, 'status_uuid').trim() };
    return {
      values,
      work: async (ctx) => {
        throwIfInvalid(schemaErrorsOf(StatusBody, values), {});
        await setStatus(ctx, view.id, values.status_uuid);
        return withNotice(bookingPath(view.id), 'status');
      },
    };
  });

  changeRoute('notes', ({ request, view }) => {
    const values = { value: str(request.body, 'value') };
    const body = { value: values.value.trim() };
    return {
      values,
      work: async (ctx) => {
        throwIfInvalid(
          schemaErrorsOf(PublicNoteBody, body),
          body.value === '' ? withIssues({ value: ['Write the note first.'] }, { value: REQUIRED }) : {},
        );
        await addPublicNote(ctx, view.id, body.value);
        return withNotice(bookingPath(view.id), 'note');
      },
    };
  });

  changeRoute('complete', ({ request, workspace, view }) => {
    const values = {
      account_uuid: str(request.body, 'account_uuid').trim(),
      paid_amount: str(request.body, 'paid_amount').trim(),
    };
    const minor = minorOf(values.paid_amount, workspace.currency);
    return {
      values,
      work: async (ctx) => {
        const body = { account_uuid: values.account_uuid, paid_amount: minor ?? 0 };
        throwIfInvalid(
          schemaErrorsOf(CompleteBody, body),
          minor === undefined ? { paid_amount: ['Enter the amount paid, such as 90.00.'] } : {},
        );
        await completeBooking(ctx, view.id, body);
        return withNotice(bookingPath(view.id), 'completed');
      },
    };
  });

  changeRoute('no-show', ({ view }) => ({
    values: {},
    // The payments outbox handler settles the no-show fee when the cancellation is dispatched.
    work: async (ctx) => {
      await cancelBooking(ctx, view.id, 'didnt_come');
      return withNotice(bookingPath(view.id), 'no_show');
    },
  }));

  // An edit in the staffer's own calendar, read back: Apply moves or cancels the booking the
  // normal way (a taken time is the normal conflict); Ignore writes the event back.
  changeRoute('calendar-apply', ({ request, view }) => ({
    values: {},
    override: { action: 'calendar-apply', fields: {} },
    work: async (context) => {
      // "Move anyway": the new time is blocked only by the staffer's own calendar (another event).
      const ctx = str(request.body, 'override_busy') === 'yes' ? overridingOutsideBusy(context) : context;
      const done = await applyOutsideChange(ctx, view.id);
      return withNotice(bookingPath(view.id), done);
    },
  }));

  changeRoute('calendar-ignore', ({ view }) => ({
    values: {},
    work: async (ctx) => {
      await ignoreOutsideChange(ctx.uow, ctx.db, ctx.workspace.id, view.id, deps.clock.now());
      return withNotice(bookingPath(view.id), 'calendar-ignored');
    },
  }));

  changeRoute('cancel', ({ request, view }) => {
    const values = { cancel_reason: str(request.body, 'cancel_reason').trim() };
    const body = { cancel_reason: values.cancel_reason === '' ? null : values.cancel_reason };
    return {
      values,
      work: async (ctx) => {
        throwIfInvalid(schemaErrorsOf(CancelBody, body), {});
        await cancelBooking(
          ctx,
          view.id,
          (body.cancel_reason ?? undefined) as Parameters<typeof cancelBooking>[2],
        );
        return withNotice(bookingPath(view.id), 'canceled');
      },
    };
  });

  // A series' changes from one of its bookings (docs/series.md): this, this and the following, all.
  const scopeOf = (request: FastifyRequest) => str(request.body, 'scope').trim();
  const seriesOf = (view: BookingView) => {
    if (!view.series_id) throw new AppError(404, 'not_found', 'Series not found.');
    return view.series_id;
  };
  changeRoute('series-cancel', ({ request, view }) => {
    const values = { scope: scopeOf(request) };
    return {
      values,
      work: async (ctx) => {
        const body = { scope: values.scope, booking_uuid: view.id };
        throwIfInvalid(schemaErrorsOf(SeriesCancelBody, body), {});
        await cancelSeries(ctx, seriesOf(view), body as Parameters<typeof cancelSeries>[2]);
        return withNotice(bookingPath(view.id), 'series-canceled');
      },
    };
  });

  changeRoute('series-move', ({ request, view }) => {
    const values = { scope: scopeOf(request), time: str(request.body, 'time').trim() };
    return {
      values,
      work: async (ctx) => {
        const body = { scope: values.scope, booking_uuid: view.id, time: values.time };
        throwIfInvalid(schemaErrorsOf(SeriesChangeBody, body), {
          ...(values.time === '' ? { time: ['Enter a time as HH:MM, such as 14:30.'] } : {}),
        });
        await changeSeries(ctx, seriesOf(view), body as Parameters<typeof changeSeries>[2]);
        return withNotice(bookingPath(view.id), 'series-moved');
      },
    };
  });
}
