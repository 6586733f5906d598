import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { createBookingCollecting } from '../../payments/payments.service.js';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { answerWrite } from '../../platform/http/idempotency.js';
import { pageOf, paginated } from '../../platform/http/pagination.js';
import { Data, DataList, Paginated, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { schemaFieldErrors } from '../../platform/http/validation.js';
import {
  addPublicNote,
  cancelBooking,
  changeResources,
  changeServices,
  changeStaffer,
  completeBooking,
  listPublicNotes,
  rescheduleBooking,
  setStatus,
} from '../booking-changes.service.js';
import { listHistory } from '../booking-history.repository.js';
import { presentBooking, presentHistoryEntry, presentPublicNote } from '../bookings.presenter.js';
import { type BookingView, listBookingViews, requireBookingView } from '../bookings.repository.js';
import { parseCreateBooking } from '../bookings.rules.js';
import {
  BookingJson,
  BookingParams,
  CancelBody,
  CompleteBody,
  CreateBookingBody,
  HistoryEntryJson,
  ListBookingsQuery,
  PublicNoteBody,
  PublicNoteJson,
  RescheduleBody,
  ResourcesBody,
  ServicesBody,
  StafferBody,
  StatusBody,
} from '../bookings.schemas.js';
import { type BookingContext, stafferNeededFor } from '../bookings.service.js';

export async function bookingsRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const context = (request: FastifyRequest, uow: UnitOfWork): BookingContext => ({
    ...request.context,
    db: deps.db,
    uow,
  });
  /** A booking write, answered `{data: booking}`, as every mutation answers. */
  const writeBooking = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    write: (ctx: BookingContext) => Promise<BookingView>,
  ) =>
    answerWrite(request, reply, deps.uow, status, async (uow) => {
      const data = presentBooking(
        await write(context(request, uow)),
        request.auth.workspace,
        deps.linkBase(),
      );
      // Clients of the real service read a created booking's uuid outside the envelope too.
      return status === 201 ? { data, uuid: data.uuid } : { data };
    });
  const tags = ['bookings'];

  app.post(
    '/bookings',
    {
      // The schema's errors and the workspace's rules (bookings.rules.ts) make one 422.
      attachValidation: true,
      schema: {
        tags,
        summary: 'Create a booking (201); finds or creates the customer by phone',
        body: CreateBookingBody,
        response: responses({
          201: Type.Object({
            data: BookingJson,
            uuid: Type.String({
              format: 'uuid',
              description: 'The same as data.uuid, for clients that read it outside the envelope',
            }),
          }),
        }),
      },
    },
    async (request, reply) => {
      const workspace = request.auth.workspace;
      parseCreateBooking(workspace, request.body, {
        schemaErrors: schemaFieldErrors(request),
        stafferNeeded: await stafferNeededFor(deps.db, workspace, request.body),
      });
      return writeBooking(request, reply, 201, (ctx) =>
        createBookingCollecting(ctx, deps.config, request.body),
      );
    },
  );

  app.get(
    '/bookings',
    {
      schema: {
        tags,
        summary: 'List bookings',
        querystring: ListBookingsQuery,
        response: responses({ 200: Paginated(BookingJson) }),
      },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      const date = (value: string | undefined) => (value === undefined ? undefined : new Date(value));
      const { rows, total } = await listBookingViews(
        deps.db,
        request.auth.workspace.id,
        {
          location_uuid: query.location_uuid,
          staffer_uuid: query.staffer_uuid,
          customer_uuid: query.customer_uuid,
          status_type: query.status_type,
          reserved_on_from: date(query.reserved_on_from),
          reserved_on_to: date(query.reserved_on_to),
          updated_since: date(query.updated_since),
        },
        page,
      );
      return paginated(
        request,
        page,
        rows.map((row) => presentBooking(row, request.auth.workspace, deps.linkBase())),
        total,
      );
    },
  );

  app.get(
    '/bookings/:bookingUuid',
    {
      schema: {
        tags,
        summary: 'One booking',
        params: BookingParams,
        response: responses({ 200: Data(BookingJson) }),
      },
    },
    async (request) => ({
      data: presentBooking(
        await requireBookingView(deps.db, request.auth.workspace.id, request.params.bookingUuid),
        request.auth.workspace,
        deps.linkBase(),
      ),
    }),
  );

  app.get(
    '/bookings/:bookingUuid/history',
    {
      schema: {
        tags,
        summary: 'What changed, by whom, when',
        params: BookingParams,
        response: responses({ 200: DataList(HistoryEntryJson) }),
      },
    },
    async (request) => {
      await requireBookingView(deps.db, request.auth.workspace.id, request.params.bookingUuid);
      const rows = await listHistory(deps.db, request.auth.workspace.id, request.params.bookingUuid);
      return { data: rows.map(presentHistoryEntry) };
    },
  );

  app.put(
    '/bookings/:bookingUuid/reschedule',
    {
      schema: {
        tags,
        summary: 'Move a booking; emits booking-updated and booking-rescheduled',
        params: BookingParams,
        body: RescheduleBody,
        response: responses({ 200: Data(BookingJson) }),
      },
    },
    async (request, reply) =>
      writeBooking(request, reply, 200, (ctx) =>
        rescheduleBooking(ctx, request.params.bookingUuid, request.body.reserved_on),
      ),
  );

  app.put(
    '/bookings/:bookingUuid/status',
    {
      schema: {
        tags,
        summary: 'Set a non-final status by uuid',
        params: BookingParams,
        body: StatusBody,
        response: responses({ 200: Data(BookingJson) }),
      },
    },
    async (request, reply) =>
      writeBooking(request, reply, 200, (ctx) =>
        setStatus(ctx, request.params.bookingUuid, request.body.status_uuid),
      ),
  );

  app.get(
    '/bookings/:bookingUuid/public_notes',
    {
      schema: {
        tags,
        summary: 'Public notes of a booking',
        params: BookingParams,
        response: responses({ 200: DataList(PublicNoteJson) }),
      },
    },
    async (request) => {
      const notes = await listPublicNotes(deps.db, request.auth.workspace.id, request.params.bookingUuid);
      return { data: notes.map(presentPublicNote) };
    },
  );

  app.post(
    '/bookings/:bookingUuid/public_notes',
    {
      schema: {
        tags,
        summary: 'Add a public note (201; sends no webhook)',
        params: BookingParams,
        body: PublicNoteBody,
        response: responses({ 201: Data(PublicNoteJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => {
        const { note } = await addPublicNote(
          context(request, uow),
          request.params.bookingUuid,
          request.body.value,
        );
        return { data: presentPublicNote(note) };
      }),
  );

  app.put(
    '/bookings/:bookingUuid/staffer',
    {
      schema: {
        tags,
        summary: 'Change the staffer',
        params: BookingParams,
        body: StafferBody,
        response: responses({ 200: Data(BookingJson) }),
      },
    },
    async (request, reply) =>
      writeBooking(request, reply, 200, (ctx) =>
        changeStaffer(ctx, request.params.bookingUuid, request.body.staffer_uuid),
      ),
  );

  app.put(
    '/bookings/:bookingUuid/resources',
    {
      schema: {
        tags,
        summary: 'Replace the resources (rooms, chairs, equipment) the booking holds',
        params: BookingParams,
        body: ResourcesBody,
        response: responses({ 200: Data(BookingJson) }),
      },
    },
    async (request, reply) =>
      writeBooking(request, reply, 200, (ctx) =>
        changeResources(ctx, request.params.bookingUuid, request.body.resource_uuids),
      ),
  );

  app.put(
    '/bookings/:bookingUuid/services',
    {
      schema: {
        tags,
        summary: 'Replace the services (order lines)',
        params: BookingParams,
        body: ServicesBody,
        response: responses({ 200: Data(BookingJson) }),
      },
    },
    async (request, reply) =>
      writeBooking(request, reply, 200, (ctx) =>
        changeServices(ctx, request.params.bookingUuid, request.body.service_uuids),
      ),
  );

  app.put(
    '/bookings/:bookingUuid/status/complete',
    {
      schema: {
        tags,
        summary: 'Complete with a payment; emits booking-succeeded',
        params: BookingParams,
        body: CompleteBody,
        response: responses({ 200: Data(BookingJson) }),
      },
    },
    async (request, reply) =>
      writeBooking(request, reply, 200, (ctx) =>
        completeBooking(ctx, request.params.bookingUuid, request.body),
      ),
  );

  app.put(
    '/bookings/:bookingUuid/status/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel (frees the time at once); emits booking-canceled',
        params: BookingParams,
        body: CancelBody,
        response: responses({ 200: Data(BookingJson) }),
      },
    },
    async (request, reply) =>
      writeBooking(request, reply, 200, (ctx) =>
        cancelBooking(ctx, request.params.bookingUuid, request.body?.cancel_reason ?? undefined),
      ),
  );
}
