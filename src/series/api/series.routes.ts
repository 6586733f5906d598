import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { parseCreateBooking } from '../../bookings/bookings.rules.js';
import type { BookingContext } from '../../bookings/bookings.service.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { answerWrite } from '../../platform/http/idempotency.js';
import { Data, ErrorBody, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { schemaFieldErrors } from '../../platform/http/validation.js';
import { presentResult } from '../series.presenter.js';
import { checkRecurrence } from '../series.rules.js';
import {
  CreateSeriesBody,
  SeriesAnswerJson,
  SeriesCancelBody,
  SeriesChangeBody,
  SeriesConflictJson,
  SeriesJson,
  SeriesParams,
} from '../series.schemas.js';
import {
  cancelSeries,
  changeSeries,
  createSeries,
  readSeries,
  SeriesConflict,
  type SeriesOutcome,
} from '../series.service.js';

/** Recurring bookings (docs/series.md): POST /series, GET /series/{uuid}, its scoped changes. */
export async function seriesRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const context = (request: FastifyRequest, uow: UnitOfWork): BookingContext => ({
    ...request.context,
    db: deps.db,
    uow,
  });
  /** A series write: `{data: series, results}`, or 409 with each occurrence's verdict. */
  const writeSeries = async (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    write: (ctx: BookingContext) => Promise<SeriesOutcome>,
  ) => {
    try {
      return await answerWrite(request, reply, deps.uow, status, async (uow) => {
        const outcome = await write(context(request, uow));
        return {
          data: outcome.series,
          results: outcome.results.map((result) => presentResult(result, outcome.timezone)),
        };
      });
    } catch (error) {
      if (!(error instanceof SeriesConflict)) throw error;
      return reply.status(409).send({
        message: error.message,
        code: error.code,
        results: error.results.map((result) => presentResult(result, error.timezone)),
      });
    }
  };
  const tags = ['series'];
  const conflict = { 409: Type.Union([SeriesConflictJson, ErrorBody]) };

  app.post(
    '/series',
    {
      attachValidation: true,
      schema: {
        tags,
        summary:
          'Create a series of recurring bookings (201): each occurrence a normal booking; 409 with every ' +
          "occurrence's verdict when all_or_nothing meets a conflict (or nothing is free)",
        body: CreateSeriesBody,
        response: responses({ 201: SeriesAnswerJson, ...conflict }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const recurrence = typeof body?.recurrence === 'object' ? checkRecurrence(body.recurrence).errors : {};
      parseCreateBooking(request.auth.workspace, body ?? {}, {
        schemaErrors: { ...recurrence, ...schemaFieldErrors(request) },
      });
      return writeSeries(request, reply, 201, (ctx) => createSeries(ctx, body));
    },
  );

  app.get(
    '/series/:seriesUuid',
    {
      schema: {
        tags,
        summary: 'A series: its rule and every occurrence with its state',
        params: SeriesParams,
        response: responses({ 200: Data(SeriesJson) }),
      },
    },
    async (request) => ({
      data: await readSeries(deps.db, request.auth.workspace.id, request.params.seriesUuid),
    }),
  );

  app.patch(
    '/series/:seriesUuid',
    {
      schema: {
        tags,
        summary:
          'Change this occurrence, this and the following, or all: a new wall time on each date, a staffer, ' +
          'services; all or nothing; emits each booking’s events and series-updated',
        params: SeriesParams,
        body: SeriesChangeBody,
        response: responses({ 200: SeriesAnswerJson, ...conflict }),
      },
    },
    async (request, reply) =>
      writeSeries(request, reply, 200, (ctx) => changeSeries(ctx, request.params.seriesUuid, request.body)),
  );

  app.post(
    '/series/:seriesUuid/cancel',
    {
      schema: {
        tags,
        summary:
          'Cancel this occurrence, this and the following, or all; emits booking-canceled for each, and ' +
          'series-canceled when none is left booked (else series-updated)',
        params: SeriesParams,
        body: SeriesCancelBody,
        response: responses({ 200: SeriesAnswerJson }),
      },
    },
    async (request, reply) =>
      writeSeries(request, reply, 200, (ctx) => cancelSeries(ctx, request.params.seriesUuid, request.body)),
  );
}
