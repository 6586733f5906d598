import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { validationFailed } from '../../errors.js';
import { answerWrite } from '../../platform/http/idempotency.js';
import { Data, DataList, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { schemaFieldErrors, throwIfInvalid } from '../../platform/http/validation.js';
import { MAX_OVERRIDES, MAX_RANGES_PER_DAY, validateSchedule, WEEKDAYS } from '../schedules.rules.js';
import { getSchedule, listSchedules, replaceSchedule } from '../schedules.service.js';

const StafferParams = Type.Object({ stafferUuid: Type.String({ format: 'uuid' }) });
const StafferLocationParams = Type.Object({
  stafferUuid: Type.String({ format: 'uuid' }),
  locationUuid: Type.String({ format: 'uuid' }),
});

const TimeRange = Type.Object({
  from: Type.String({ description: "'HH:MM', 00:00-23:59", examples: ['09:00'] }),
  to: Type.String({
    description: "'HH:MM', 00:00-24:00; at or before `from` = the range ends on the next day",
    examples: ['13:00'],
  }),
});
const Ranges = Type.Array(TimeRange, { maxItems: MAX_RANGES_PER_DAY });
const Week = (description: string) =>
  Type.Object(Object.fromEntries(WEEKDAYS.map((day) => [day, Type.Optional(Ranges)])), { description });

// Documents the body; validateSchedule holds every rule (the schema alone would miss overlaps).
const ScheduleBody = Type.Object({
  weekly: Week('Working intervals per weekday; intervals of one day may not overlap.'),
  breaks: Type.Optional(Week('Breaks per weekday, each inside a working interval of that day.')),
  overrides: Type.Optional(
    Type.Array(
      Type.Object({
        date: Type.String({ format: 'date' }),
        intervals: Type.Array(TimeRange, { description: '[] = day off' }),
        breaks: Type.Optional(Type.Array(TimeRange)),
      }),
      { maxItems: MAX_OVERRIDES, description: 'Dates whose hours replace the weekly rule and breaks.' },
    ),
  ),
});

/** A schedule as answered: exactly what PUT stored. */
const ScheduleJson = Type.Object({
  location_uuid: Type.String({ format: 'uuid' }),
  weekly: Week('Working intervals per weekday'),
  breaks: Week('Breaks per weekday'),
  overrides: Type.Array(
    Type.Object({
      date: Type.String({ format: 'date' }),
      intervals: Type.Array(TimeRange),
      breaks: Type.Optional(Type.Array(TimeRange)),
    }),
  ),
});

/**
 * The body as sent, before Ajv coerces it in place (it would wrap `"mon": "closed"` into
 * `["closed"]`, and name `weekly.mon.0` instead of `weekly.mon`). validateSchedule checks every
 * rule on it, so the schema only documents the body and is a second line of defence.
 */
const rawBodies = new WeakMap<FastifyRequest, unknown>();

export async function schedulesRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/staffers/:stafferUuid/schedules',
    {
      schema: {
        tags: ['management'],
        summary: "A staffer's schedules at all locations",
        params: StafferParams,
        response: responses({ 200: DataList(ScheduleJson) }),
      },
    },
    async (request) => ({
      data: await listSchedules(deps.db, request.auth.workspace.id, request.params.stafferUuid),
    }),
  );

  app.get(
    '/staffers/:stafferUuid/schedules/:locationUuid',
    {
      schema: {
        tags: ['management'],
        summary: "A staffer's schedule at a location",
        params: StafferLocationParams,
        response: responses({ 200: Data(ScheduleJson) }),
      },
    },
    async (request) => {
      const { stafferUuid, locationUuid } = request.params;
      return { data: await getSchedule(deps.db, request.auth.workspace.id, stafferUuid, locationUuid) };
    },
  );

  app.put(
    '/staffers/:stafferUuid/schedules/:locationUuid',
    {
      attachValidation: true,
      preValidation: async (request) => {
        rawBodies.set(request, structuredClone(request.body));
      },
      schema: {
        tags: ['management'],
        summary: "Replace a staffer's schedule at a location; emits schedule-updated",
        params: StafferLocationParams,
        body: ScheduleBody,
        response: responses({ 200: Data(ScheduleJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const schemaErrors = schemaFieldErrors(request);
        const result = validateSchedule(rawBodies.get(request));
        if (!result.ok) throw validationFailed(result.errors);
        throwIfInvalid(schemaErrors, {});
        const { stafferUuid, locationUuid } = request.params;
        return {
          data: await replaceSchedule(uow, request.context, stafferUuid, locationUuid, result.schedule),
        };
      }),
  );
}
