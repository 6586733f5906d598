import { Type } from 'typebox';
import { requireLocation } from '../../locations/locations.repository.js';
import { LocationParams } from '../../locations/locations.schemas.js';
import { responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { ComputeGate } from '../compute-gate.js';
import { EvaluationCache } from '../evaluation-cache.js';
import { TimeSlotsJson } from '../slots.schemas.js';
import { MAX_NEXT_DAYS, nextTimeSlots, timeSlots } from '../slots.service.js';
import { minuteBucket, SlotsCache } from '../slots-cache.js';
import { timeSlotsJson } from '../slots-json.js';

// Dates stay plain strings here so the service can name each bad field in one 422.
const TimeSlotsQuerySchema = Type.Object({
  service_uuid: Type.String({ format: 'uuid' }),
  range_start: Type.Optional(Type.String({ description: 'YYYY-MM-DD; default today' })),
  range_end: Type.Optional(
    Type.String({
      description: 'YYYY-MM-DD; default range_start + 6 days; at most 90 days after range_start',
    }),
  ),
  staffer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  timezone: Type.Optional(Type.String({ description: "IANA zone of the answer; default the location's" })),
});

const NextSlotsQuerySchema = Type.Object({
  service_uuid: Type.String({ format: 'uuid' }),
  staffer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  timezone: Type.Optional(Type.String({ description: "IANA zone of the answer; default the location's" })),
  from: Type.Optional(Type.String({ description: 'YYYY-MM-DD; default today' })),
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_NEXT_DAYS,
      default: 1,
      description: 'How many days with free time',
    }),
  ),
});

export async function slotsRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const cache = new SlotsCache();
  // Answers that miss `cache` (other range, other answer zone) still share the engine's work.
  const evaluations = new EvaluationCache();
  const gate = new ComputeGate(2);
  app.get(
    '/locations/:locationUuid/time-slots',
    {
      schema: {
        tags: ['slots'],
        summary: 'Free time slots and intervals of a service, per day',
        params: LocationParams,
        querystring: TimeSlotsQuerySchema,
        response: responses({ 200: TimeSlotsJson }),
      },
    },
    async (request, reply) => {
      const { workspace } = request.auth;
      const { query } = request;
      const now = deps.clock.now();
      const key = cache.keyOf(
        [
          workspace.id,
          request.params.locationUuid,
          query.service_uuid,
          query.staffer_uuid,
          query.timezone,
          query.range_start,
          query.range_end,
        ],
        now,
      );
      // Read the version before the data: an answer stored under it is never older than it.
      const version = key === undefined ? undefined : await deps.availability.version(workspace.id);
      let body = key === undefined ? undefined : cache.get(key, version!);
      if (body === undefined) {
        const location = await requireLocation(deps.db, workspace.id, request.params.locationUuid);
        const reuse =
          key === undefined ? undefined : { cache: evaluations, stamp: `${minuteBucket(now)}|${version}` };
        body = await gate.run(async () =>
          timeSlotsJson(await timeSlots(deps.db, workspace, location, query, now, reuse)),
        );
        if (key !== undefined) cache.set(key, version!, body);
      }
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

  app.get(
    '/locations/:locationUuid/time-slots/next',
    {
      schema: {
        tags: ['slots'],
        summary: 'The nearest days that have free time (same shape as time-slots, only days with slots)',
        params: LocationParams,
        querystring: NextSlotsQuerySchema,
        response: responses({ 200: TimeSlotsJson }),
      },
    },
    async (request) => {
      const { workspace } = request.auth;
      const location = await requireLocation(deps.db, workspace.id, request.params.locationUuid);
      return nextTimeSlots(deps.db, workspace, location, request.query, deps.clock.now());
    },
  );
}
