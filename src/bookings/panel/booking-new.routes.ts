import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { customerSearchOf } from '../../customers/customer-search.rules.js';
import { searchCustomersPage } from '../../customers/customers.service.js';
import {
  AppError,
  type FieldErrors,
  type FieldIssue,
  fieldIssueOf,
  InvalidInput,
  SlotBlockedOutside,
  SlotUnavailable,
  validationFailed,
} from '../../errors.js';
import { listLocationsPage } from '../../locations/locations.service.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { type FormState, list, str } from '../../panel-kit/forms.js';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import { todayIn, toUtcIso } from '../../platform/time/zone.js';
import { checkRecurrence, type RecurrenceInput } from '../../series/series.rules.js';
import { RecurrenceBody } from '../../series/series.schemas.js';
import { createSeries, SeriesConflict } from '../../series/series.service.js';
import { listLocationServicesPage } from '../../services/services.service.js';
import type { Slot } from '../../slots/engine/types.js';
import { listLocationStaffersPage } from '../../staffers/staffers.service.js';
import type { WorkspaceRow } from '../../workspaces/workspaces.repository.js';
import { nearestSlots, timesOfServicesWithOutsideBusy } from '../booking-free-times.service.js';
import { parseCreateBooking } from '../bookings.rules.js';
import {
  type CreateBookingInput,
  createBooking,
  overridingOutsideBusy,
  stafferNeededFor,
} from '../bookings.service.js';
import { bookingPath, type Choice } from './booking.page.js';
import {
  CREATE_FIELDS,
  type CustomerMatch,
  NEW_BOOKING,
  NewBookingPage,
  REPEAT_FIELDS,
  WHERE_AND_WHEN,
} from './booking-new.page.js';
import { isDate, slotChoices, wallDate, wallTime, wallTimeInstant } from './booking-times.js';
import { conflictMessage, withNotice } from './bookings.routes.js';

const access = { config: { panelAccess: 'bookings' as const } };
const ALL = { page: 1, perPage: 500, offset: 0 };

type Values = FormState['values'];

/** The create form's values from a query string or a form body. */
function valuesOf(source: unknown): Values {
  const values: Values = {};
  for (const name of CREATE_FIELDS) {
    values[name] = name === 'service_uuid' ? list(source, name) : str(source, name).trim();
  }
  // The booking's note is kept as typed (trimmed by the service).
  values.booking_comment = str(source, 'booking_comment');
  for (const name of REPEAT_FIELDS) {
    values[name] = name === 'repeat_weekdays' ? list(source, name) : str(source, name).trim();
  }
  // Repeat is off until ticked; its fields start at "weekly, every 1, 4 times, all or nothing".
  values.repeat_frequency ||= 'weekly';
  values.repeat_interval ||= '1';
  if (values.repeat_until === '') values.repeat_count ||= '4';
  values.repeat_mode ||= 'all_or_nothing';
  return values;
}

/** The `recurrence` of POST /series from the Repeat fieldset; its errors named by the form's fields. */
function recurrenceOf(values: Values): { recurrence: RecurrenceInput; errors: FieldErrors } {
  const number = (name: string) => {
    const value = text(values, name);
    return /^\d+$/.test(value) ? Number(value) : (value as unknown as number);
  };
  const until = text(values, 'repeat_until');
  const frequency = text(values, 'repeat_frequency') as RecurrenceInput['frequency'];
  const recurrence: RecurrenceInput = {
    frequency,
    interval: number('repeat_interval'),
    ...(frequency === 'weekly'
      ? { weekdays: texts(values, 'repeat_weekdays') as RecurrenceInput['weekdays'] }
      : {}),
    ...(until !== '' ? { until } : { count: number('repeat_count') }),
    mode: text(values, 'repeat_mode') as RecurrenceInput['mode'],
  };
  const found = { ...checkRecurrence(recurrence).errors, ...schemaErrorsOf(RecurrenceBody, recurrence) };
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(found)) {
    const name = field.replace(/^recurrence\./, '').split('.')[0]!;
    errors[`repeat_${name}`] ??= messages;
  }
  return { recurrence, errors };
}

const text = (values: Values, name: string) => {
  const value = values[name];
  return typeof value === 'string' ? value : '';
};
const texts = (values: Values, name: string) => {
  const value = values[name];
  return Array.isArray(value) ? value : [];
};

/**
 * New booking: the customer by phone with a search, services, a staffer or
 * automatic, and a time from the real free slots. The POST is POST /bookings: the same field
 * names, the same input path (`parseCreateBooking`) and the same service, for one service or
 * several in one booking.
 */
export function newBookingPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  const workspaceOf = async (request: FastifyRequest) => (await panelContextOf(request)).workspace;

  /** The location the form names (one of the workspace's live ones), else the first. */
  async function choicesFor(workspace: WorkspaceRow, values: Values) {
    const locations = (await listLocationsPage(deps.db, workspace.id, ALL)).rows;
    const location = locations.find((l) => l.id === text(values, 'location_uuid')) ?? locations[0];
    if (!location) return { locations, location: undefined, services: [], staffers: [] };
    const [services, staffers] = await Promise.all([
      listLocationServicesPage(deps.db, workspace.id, location.id, ALL),
      listLocationStaffersPage(deps.db, workspace.id, location.id, ALL),
    ]);
    return { locations, location, services: services.rows, staffers: staffers.rows };
  }

  async function showForm(
    reply: FastifyReply,
    workspace: WorkspaceRow,
    values: Values,
    extra: {
      status?: number;
      errors?: FieldErrors;
      problem?: { message: string; asked: number; override?: boolean } | undefined;
      seriesProblem?: SeriesConflict | undefined;
      customerQuery?: string;
    } = {},
  ) {
    const { locations, location, services, staffers } = await choicesFor(workspace, values);
    const i18n = panelTextOf(reply.request);
    const now = deps.clock.now();
    const zone = location?.timezone ?? 'UTC';
    if (location) {
      values.location_uuid = location.id;
      if (!isDate(text(values, 'date'))) values.date ||= todayIn(zone, now);
    }
    // Free times only for what the form may book: offered services, a staffer of the location.
    const serviceIds = texts(values, 'service_uuid').filter((id) => services.some((s) => s.id === id));
    const stafferId = staffers.find((s) => s.id === text(values, 'staffer_uuid'))?.id;
    let slots: Slot[] | undefined;
    let outsideBusy: Slot[] = [];
    if (location && serviceIds.length > 0 && isDate(text(values, 'date'))) {
      ({ free: slots, outsideBusy } = await timesOfServicesWithOutsideBusy(deps.db, {
        workspace,
        location,
        serviceIds,
        stafferId,
        date: text(values, 'date'),
        now,
      }));
    }
    const choices = slots && slotChoices(slots);
    // Times only the staffers' own calendars block are listed too, marked: choosing one warns
    // and offers "Book anyway" (the panel's override); every other refusal stays.
    const busyStarts = new Set(outsideBusy.map((slot) => slot.start_time));
    let times: Choice[] | undefined =
      slots &&
      slotChoices([...slots, ...outsideBusy].sort((a, b) => a.start_time.localeCompare(b.start_time))).map(
        ({ value, label, slot }) => ({
          value,
          label: busyStarts.has(slot.start_time) ? i18n.t('new.outsideBusyTime', { time: label }) : label,
        }),
      );
    // A time the calendar linked with, before any free times were asked: offered as it is (the
    // create checks it like any other).
    if (times === undefined && text(values, 'reserved_on') !== '')
      times = [{ value: text(values, 'reserved_on'), label: text(values, 'reserved_on') }];
    let problem: { message: string; times: Choice[]; override?: boolean } | undefined;
    if (extra.problem) {
      const nearest = new Set(nearestSlots(slots ?? [], extra.problem.asked));
      problem = {
        message: extra.problem.message,
        ...(extra.problem.override ? { override: true } : {}),
        times: (choices ?? [])
          .filter((c) => nearest.has(c.slot))
          .map(({ value, label }) => ({ value, label })),
      };
    }
    const customerQuery = extra.customerQuery ?? '';
    let matches: CustomerMatch[] | undefined;
    const search = customerSearchOf(customerQuery);
    if (search) {
      // The Customers page's search: a phone typed any way, or words of a name or email.
      const { rows } = await searchCustomersPage(deps.db, workspace.id, search, { perPage: 10, offset: 0 });
      matches = rows.map((customer) => {
        const params = new URLSearchParams();
        for (const name of WHERE_AND_WHEN) {
          const value = values[name];
          for (const item of Array.isArray(value) ? value : value ? [value] : []) params.append(name, item);
        }
        params.set('customer_phone', customer.phone);
        params.set('customer_first_name', customer.first_name);
        params.set('customer_last_name', customer.last_name);
        params.set('customer_email', customer.email);
        const name = `${customer.first_name} ${customer.last_name}`.trim() || i18n.t('new.noName');
        return { label: `${name} · ${customer.phone}`, href: `${NEW_BOOKING}?${params}` };
      });
    }
    const automatic = workspace.staffer_selection !== 'required';
    return reply.page({
      title: i18n.t('new.title'),
      status: extra.status ?? 200,
      body: NewBookingPage({
        form: { values, errors: extra.errors ?? {} },
        locations: locations.map((l) => ({ value: l.id, label: l.name })),
        services: services.map((s) => ({ value: s.id, label: `${s.name} (${s.duration_minutes} min)` })),
        staffers: [
          ...(automatic
            ? [{ value: '', label: i18n.t('new.automatic') }]
            : [{ value: '', label: i18n.t('new.chooseStaffer') }]),
          ...staffers.map((s) => ({ value: s.id, label: `${s.first_name} ${s.last_name}`.trim() })),
        ],
        times,
        zone,
        bookingForm: workspace.booking_form,
        csrf: reply.csrf(),
        customerQuery,
        matches,
        problem,
        seriesProblem: extra.seriesProblem?.results.map((result) => {
          const locale = i18n.lang === 'en' ? undefined : i18n.locale;
          const tz = extra.seriesProblem!.timezone;
          return {
            when: `${wallDate(result.start, tz, locale)}, ${wallTime(result.start, tz)}`,
            free: result.result !== 'conflict',
            nearest: result.nearest.map((at) => wallTime(at, tz)),
          };
        }),
        text: i18n,
      }),
    });
  }

  panel.get('/bookings/new', access, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    return showForm(reply, await workspaceOf(request), valuesOf(query), {
      customerQuery: str(query, 'customer_q'),
    });
  });

  panel.post('/bookings', access, async (request, reply) => {
    const workspace = await workspaceOf(request);
    const values = valuesOf(request.body);
    // "Show free times": the same page with the times of what is chosen; nothing is written.
    if (str(request.body, 'show') === 'times') return showForm(reply, workspace, values);

    const { location } = await choicesFor(workspace, values);
    const ownErrors: FieldErrors = {};
    let asked: number | undefined;
    const locationId = text(values, 'location_uuid');
    if (location?.id !== locationId && /^[0-9a-f-]{36}$/i.test(locationId))
      ownErrors.location_uuid = ['Choose one of your locations.'];
    if (location && location.id === locationId) {
      if (text(values, 'reserved_on') === '') {
        ownErrors.reserved_on = ['Choose a time: press “Show free times” to list the free ones.'];
        if (!isDate(text(values, 'date')))
          ownErrors.date = ['Enter a date as YYYY-MM-DD, such as 2026-09-10.'];
      } else {
        const at = wallTimeInstant(
          location.timezone,
          text(values, 'date'),
          text(values, 'reserved_on'),
          'reserved_on',
        );
        if (at.errors) Object.assign(ownErrors, at.errors);
        else asked = at.instant;
      }
    }
    const serviceIds = texts(values, 'service_uuid');
    if (serviceIds.length === 0) ownErrors.service_uuid = ['Choose at least one service.'];
    const callback = text(values, 'booking_callback');
    const optional = (name: string) => (text(values, name).trim() === '' ? undefined : text(values, name));
    const body: CreateBookingInput = {
      reserved_on: asked === undefined ? '' : toUtcIso(asked),
      location_uuid: locationId,
      service_uuid: serviceIds[0] ?? '',
      service_uuids: serviceIds.length > 1 ? serviceIds : undefined,
      staffer_uuid: text(values, 'staffer_uuid') || null,
      customer_phone: text(values, 'customer_phone'),
      customer_first_name: optional('customer_first_name'),
      customer_last_name: optional('customer_last_name'),
      customer_email: optional('customer_email'),
      booking_comment: optional('booking_comment'),
      booking_callback: callback === 'yes' ? true : callback === 'no' ? false : undefined,
      source: 'panel',
    };
    for (const key of Object.keys(body) as (keyof CreateBookingInput)[])
      if (body[key] === undefined) delete body[key];
    const context = await panelContextOf(request);
    const repeat = text(values, 'repeat') === 'yes' ? recurrenceOf(values) : undefined;
    if (repeat) Object.assign(ownErrors, repeat.errors);
    try {
      // POST /bookings' input path, and what this form's own inputs (a date and a wall time)
      // say first: they name what the person typed.
      const errors: FieldErrors = { ...ownErrors };
      const issues: Record<string, FieldIssue> = {};
      try {
        // A rental (docs/resources.md "Rentals") is booked without a staffer whatever the setting.
        parseCreateBooking(workspace, body, {
          stafferNeeded: await stafferNeededFor(deps.db, workspace, body),
        });
      } catch (error) {
        if (!(error instanceof InvalidInput)) throw error;
        for (const [field, messages] of Object.entries(error.errors ?? {})) {
          if (errors[field]) continue;
          errors[field] = messages;
          if (error.issues[field]) issues[field] = fieldIssueOf(error.issues[field]);
        }
      }
      if (Object.keys(errors).length > 0) throw validationFailed(errors, issues);
      // The form's key: a double click makes one booking and both answers lead to it.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        const ctx = { ...context, db: uow.db, uow };
        if (repeat) {
          // A series (docs/series.md): every date through the same create, in this one unit of work.
          const outcome = await createSeries(ctx, { ...body, recurrence: repeat.recurrence });
          const first = outcome.results.find((result) => result.bookingId !== null)!;
          return withNotice(bookingPath(first.bookingId!), 'series-created');
        }
        // "Book anyway", after the warning that only the staffer's own calendar blocks the time.
        const override = str(request.body, 'override_busy') === 'yes';
        const booking = await createBooking(override ? overridingOutsideBusy(ctx) : ctx, body);
        return withNotice(bookingPath(booking.id), 'created');
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.statusCode === 422 && error.errors) {
        return showForm(reply, workspace, values, {
          status: 422,
          errors: formErrorsOf(error, panelTextOf(request).t),
        });
      }
      if (error instanceof SeriesConflict) {
        return showForm(reply, workspace, values, { status: 409, seriesProblem: error });
      }
      if (error instanceof SlotBlockedOutside) {
        return showForm(reply, workspace, values, {
          status: 409,
          problem: {
            message: panelTextOf(request).t('booking.outsideBusy'),
            asked: asked ?? 0,
            override: true,
          },
        });
      }
      if (error instanceof SlotUnavailable) {
        return showForm(reply, workspace, values, {
          status: 409,
          problem: { message: conflictMessage(error, panelTextOf(request)), asked: asked ?? 0 },
        });
      }
      throw error;
    }
  });
}
