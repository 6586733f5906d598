import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findConnectionView } from '../../calendar-sync/calendar-sync.service.js';
import { AppError, type FieldErrors } from '../../errors.js';
import { listLocationsPage } from '../../locations/locations.service.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, type FormState, list, str } from '../../panel-kit/forms.js';
import { type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { pageParam } from '../../panel-kit/list-pager.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { throwIfInvalid } from '../../platform/http/validation.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import { todayIn } from '../../platform/time/zone.js';
import { mondayOf, WeekPreview, weekOf } from '../../schedules/panel/week-preview.js';
import { listSchedules } from '../../schedules/schedules.service.js';
import type { StafferRecord } from '../staffers.repository.js';
import { StafferCreateBody } from '../staffers.schemas.js';
import {
  archiveStaffer,
  createStaffer,
  getStaffer,
  listOfferedServicePairs,
  listStaffersPage,
  updateStaffer,
} from '../staffers.service.js';
import { NewStafferPage, noticeOf, pairValue, StafferPage, StaffersPage } from './staffers.page.js';
import { fullName, STAFFERS } from './staffers.view.js';

const access = { config: { panelAccess: 'setup' as const } };
const PER_PAGE = 25;
/** Locations shown with hours on a staffer's page (a business has a handful). */
const MAX_LOCATIONS = 100;

const formOf = (staffer: StafferRecord): FormState['values'] => ({
  first_name: staffer.first_name,
  last_name: staffer.last_name,
  position: staffer.position,
  description: staffer.description,
  avatar: staffer.avatar ?? '',
  services: staffer.assignments.flatMap((a) => a.serviceIds.map((id) => pairValue(a.locationId, id))),
});

function valuesOf(body: unknown) {
  return {
    first_name: str(body, 'first_name'),
    last_name: str(body, 'last_name'),
    position: str(body, 'position'),
    description: str(body, 'description'),
    avatar: str(body, 'avatar'),
    services: list(body, 'services'),
  };
}

/** The body POST /staffers and PATCH /staffers/{uuid} take, from the form. */
function apiBodyOf(values: ReturnType<typeof valuesOf>) {
  const byLocation = new Map<string, string[]>();
  for (const value of values.services) {
    const [locationId = '', serviceId = ''] = value.split('|');
    byLocation.set(locationId, [...(byLocation.get(locationId) ?? []), serviceId]);
  }
  const avatar = values.avatar.trim();
  return {
    first_name: values.first_name,
    last_name: values.last_name,
    position: values.position,
    description: values.description,
    avatar: avatar === '' ? null : avatar,
    services: [...byLocation].map(([location_uuid, service_uuids]) => ({ location_uuid, service_uuids })),
  };
}

/** A 422 of the schema or the rules, to show on the form; anything else goes on. */
function formErrors(error: unknown, t: PanelText['t']): FieldErrors {
  if (error instanceof AppError && error.statusCode === 422 && error.errors) return formErrorsOf(error, t);
  throw error;
}

/**
 * Setup -> Staff and hours (owners and admins): the staffers' profiles and the services they give
 * at each location, through the schema and services of POST/PATCH/DELETE /staffers.
 */
export function staffersPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function renderStaffer(
    request: FastifyRequest,
    reply: FastifyReply,
    staffer: StafferRecord,
    form: FormState,
    status = 200,
  ) {
    const workspaceId = sessionOf(request).workspace.id;
    const text = panelTextOf(request);
    const [pairs, locations, schedules, calendar] = await Promise.all([
      listOfferedServicePairs(deps.db, workspaceId),
      listLocationsPage(deps.db, workspaceId, { page: 1, perPage: MAX_LOCATIONS, offset: 0 }),
      listSchedules(deps.db, workspaceId, staffer.id),
      findConnectionView(deps.db, workspaceId, staffer.id),
    ]);
    const now = deps.clock.now();
    const hours = locations.rows.map((location) => {
      const schedule = schedules.find((entry) => entry.location_uuid === location.id);
      const today = todayIn(location.timezone, now);
      return {
        locationId: location.id,
        locationName: location.name,
        preview: schedule
          ? WeekPreview({
              days: weekOf(schedule, mondayOf(today)),
              today,
              label: text.t('week.label', {
                name: fullName(staffer),
                location: location.name,
                timezone: location.timezone,
              }),
              text,
            })
          : null,
      };
    });
    return reply.page({
      title: fullName(staffer),
      status,
      body: StafferPage({
        staffer,
        form,
        csrf: reply.csrf(),
        pairs,
        hours,
        calendar,
        notice: status === 200 ? noticeOf(request.query, text) : undefined,
        text,
      }),
    });
  }

  panel.get('/setup/staffers', access, async (request, reply) => {
    const page = pageParam(request.query);
    const { rows, total } = await listStaffersPage(deps.db, sessionOf(request).workspace.id, {
      page,
      perPage: PER_PAGE,
      offset: (page - 1) * PER_PAGE,
    });
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('nav.staffers'),
      body: StaffersPage({
        staffers: rows,
        page,
        perPage: PER_PAGE,
        total,
        notice: noticeOf(request.query, text),
        text,
      }),
    });
  });

  panel.get('/setup/staffers/new', access, async (request, reply) => {
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('staffers.add'),
      body: NewStafferPage({
        form: emptyForm(),
        csrf: reply.csrf(),
        pairs: await listOfferedServicePairs(deps.db, sessionOf(request).workspace.id),
        text,
      }),
    });
  });

  panel.post('/setup/staffers', access, async (request, reply) => {
    const workspaceId = sessionOf(request).workspace.id;
    const values = valuesOf(request.body);
    try {
      const body = apiBodyOf(values);
      throwIfInvalid(schemaErrorsOf(StafferCreateBody, body), {});
      // The form's key: a double click adds one staffer, and both answers open that one.
      return await redirectOnce(request, reply, deps.uow, workspaceId, async (uow) => {
        const staffer = await createStaffer(uow, workspaceId, body);
        return `${STAFFERS}/${staffer.id}?notice=created`;
      });
    } catch (error) {
      const errors = formErrors(error, panelTextOf(request).t);
      const text = panelTextOf(request);
      return reply.page({
        title: text.t('staffers.add'),
        status: 422,
        body: NewStafferPage({
          form: { values, errors },
          csrf: reply.csrf(),
          pairs: await listOfferedServicePairs(deps.db, workspaceId),
          text,
        }),
      });
    }
  });

  panel.get('/setup/staffers/:stafferUuid', access, async (request, reply) => {
    const staffer = await getStaffer(
      deps.db,
      sessionOf(request).workspace.id,
      uuidParam(request, 'stafferUuid'),
    );
    return renderStaffer(request, reply, staffer, emptyForm(formOf(staffer)));
  });

  panel.post('/setup/staffers/:stafferUuid', access, async (request, reply) => {
    const workspaceId = sessionOf(request).workspace.id;
    const id = uuidParam(request, 'stafferUuid');
    // 404 before 422, as the API answers.
    const staffer = await getStaffer(deps.db, workspaceId, id);
    const values = valuesOf(request.body);
    try {
      const body = apiBodyOf(values);
      throwIfInvalid(schemaErrorsOf(StafferCreateBody, body), {});
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, workspaceId, async (uow) => {
        await updateStaffer(uow, workspaceId, id, body);
        return `${STAFFERS}/${id}?notice=saved`;
      });
    } catch (error) {
      return renderStaffer(
        request,
        reply,
        staffer,
        { values, errors: formErrors(error, panelTextOf(request).t) },
        422,
      );
    }
  });

  panel.post('/setup/staffers/:stafferUuid/archive', access, async (request, reply) => {
    const workspaceId = sessionOf(request).workspace.id;
    // The form's key: a repeat gets the first redirect, not a 404 for the staffer it archived.
    return redirectOnce(request, reply, deps.uow, workspaceId, async (uow) => {
      await archiveStaffer(uow, workspaceId, uuidParam(request, 'stafferUuid'));
      return `${STAFFERS}?notice=archived`;
    });
  });
}
