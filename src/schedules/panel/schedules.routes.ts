import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getLocation } from '../../locations/locations.service.js';
import { wordedFieldErrors } from '../../panel-kit/form-errors.js';
import type { FormState } from '../../panel-kit/forms.js';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { todayIn } from '../../platform/time/zone.js';
import { fullName, STAFFERS } from '../../staffers/panel/staffers.view.js';
import { getStaffer } from '../../staffers/staffers.service.js';
import { validateSchedule } from '../schedules.rules.js';
import { getSchedule, replaceSchedule } from '../schedules.service.js';
import { SchedulePage } from './schedule.page.js';
import {
  type FormValues,
  formErrorsOf,
  formValuesOf,
  NEW_OVERRIDE_ROWS,
  rowsIn,
  scheduleBodyOf,
  scheduleValuesOf,
} from './schedule-form.js';
import { mondayOf, WeekPreview, weekOf } from './week-preview.js';

const access = { config: { panelAccess: 'setup' as const } };
const PATH = '/setup/staffers/:stafferUuid/hours/:locationUuid';

/**
 * Setup -> Staff and hours -> a staffer's hours at a location: weekly hours with breaks and date
 * overrides, checked by the rules of PUT /staffers/{uuid}/schedules/{location} (validateSchedule)
 * and stored by the same service.
 */
export function schedulesPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function subjects(request: FastifyRequest) {
    const workspaceId = sessionOf(request).workspace.id;
    const staffer = await getStaffer(deps.db, workspaceId, uuidParam(request, 'stafferUuid'));
    const location = await getLocation(deps.db, workspaceId, uuidParam(request, 'locationUuid'));
    const schedule = await getSchedule(deps.db, workspaceId, staffer.id, location.id);
    return { workspaceId, staffer, location, schedule };
  }

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    form: FormState,
    extraRows: number,
    status = 200,
  ) {
    const { staffer, location, schedule } = await subjects(request);
    const stafferPath = `${STAFFERS}/${staffer.id}`;
    const today = todayIn(location.timezone, deps.clock.now());
    const existing = schedule.overrides.length;
    const saved = (request.query as Record<string, unknown>).notice === 'saved';
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('hoursPage.title', { name: fullName(staffer) }),
      status,
      body: SchedulePage({
        form,
        csrf: reply.csrf(),
        action: `${stafferPath}/hours/${location.id}`,
        stafferName: fullName(staffer),
        stafferPath,
        locationName: location.name,
        timezone: location.timezone,
        existingOverrides: Math.min(existing, rowsIn(form.values as FormValues, 'overrides')),
        overrideRows: rowsIn(form.values as FormValues, 'overrides') + extraRows,
        preview: WeekPreview({
          days: weekOf(schedule, mondayOf(today)),
          today,
          label: text.t('week.labelSaved', { timezone: location.timezone }),
          text,
        }),
        notice: saved && status === 200 ? text.t('staffers.hoursSaved') : undefined,
        text,
      }),
    });
  }

  panel.get(PATH, access, async (request, reply) => {
    const { schedule } = await subjects(request);
    return render(request, reply, { values: formValuesOf(schedule), errors: {} }, NEW_OVERRIDE_ROWS);
  });

  panel.post(PATH, access, async (request, reply) => {
    // 404 before 422: an unknown staffer or location has nothing to validate.
    const { workspaceId, staffer, location } = await subjects(request);
    const values = scheduleValuesOf(request.body);
    // "Add another date": the same form again, as typed, with one more empty date; nothing saved.
    if ((request.body as Record<string, unknown> | undefined)?.add_override !== undefined) {
      return render(request, reply, { values, errors: {} }, 1);
    }
    const { t } = panelTextOf(request);
    const fromForm = scheduleBodyOf(values, {
      noHours: t('hoursPage.overrideNoHours', { dayOff: t('hoursPage.dayOff') }),
    });
    const result = validateSchedule(fromForm.body);
    const errors = {
      ...(result.ok ? {} : formErrorsOf(wordedFieldErrors(result.errors, t), fromForm.formKey)),
      ...fromForm.errors,
    };
    if (!result.ok || Object.keys(errors).length > 0) {
      return render(request, reply, { values, errors }, 0, 422);
    }
    // The form's key: a double click replaces the hours once and answers both the same way.
    const ctx = await panelContextOf(request);
    return redirectOnce(request, reply, deps.uow, workspaceId, async (uow) => {
      await replaceSchedule(uow, ctx, staffer.id, location.id, result.schedule);
      return `${STAFFERS}/${staffer.id}/hours/${location.id}?notice=saved`;
    });
  });
}
