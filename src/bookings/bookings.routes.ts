import type { FastifyRequest } from 'fastify';
import { pageOf, paginated } from '../http/pagination.js';
import type { ApiApp, AppDeps } from '../http/types.js';
import {
  addPublicNote,
  cancelBooking,
  changeServices,
  changeStaffer,
  completeBooking,
  listPublicNotes,
  rescheduleBooking,
  setStatus,
} from './booking-changes.js';
import { presentBooking } from './bookings.presenter.js';
import { listBookingViews, requireBookingView } from './bookings.repository.js';
import {
  BookingParams,
  CancelBody,
  CompleteBody,
  CreateBookingBody,
  ListBookingsQuery,
  PublicNoteBody,
  RescheduleBody,
  ServicesBody,
  StafferBody,
  StatusBody,
} from './bookings.schemas.js';
import { type BookingContext, createBooking } from './bookings.service.js';
import { listHistory } from './history.js';

export async function bookingsRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const context = (request: FastifyRequest): BookingContext => ({
    db: deps.db,
    workspace: request.auth.workspace,
    actor: { type: 'api_key', id: request.auth.apiKeyId },
    now: deps.clock.now(),
  });
  const tags = ['bookings'];

  app.post(
    '/bookings',
    {
      schema: {
        tags,
        summary: 'Create a booking (201); finds or creates the customer by phone',
        body: CreateBookingBody,
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await createBooking(context(request), request.body) }),
  );

  app.get(
    '/bookings',
    { schema: { tags, summary: 'List bookings', querystring: ListBookingsQuery } },
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
        rows.map((row) => presentBooking(row, request.auth.workspace)),
        total,
      );
    },
  );

  app.get(
    '/bookings/:bookingUuid',
    { schema: { tags, summary: 'One booking', params: BookingParams } },
    async (request) => ({
      data: presentBooking(
        await requireBookingView(deps.db, request.auth.workspace.id, request.params.bookingUuid),
        request.auth.workspace,
      ),
    }),
  );

  app.get(
    '/bookings/:bookingUuid/history',
    { schema: { tags, summary: 'What changed, by whom, when', params: BookingParams } },
    async (request) => {
      await requireBookingView(deps.db, request.auth.workspace.id, request.params.bookingUuid);
      return { data: await listHistory(deps.db, request.auth.workspace.id, request.params.bookingUuid) };
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
      },
    },
    async (request) => ({
      data: await rescheduleBooking(context(request), request.params.bookingUuid, request.body.reserved_on),
    }),
  );

  app.put(
    '/bookings/:bookingUuid/status',
    { schema: { tags, summary: 'Set a non-final status by uuid', params: BookingParams, body: StatusBody } },
    async (request) => ({
      data: await setStatus(context(request), request.params.bookingUuid, request.body.status_uuid),
    }),
  );

  app.get(
    '/bookings/:bookingUuid/public_notes',
    { schema: { tags, summary: 'Public notes of a booking', params: BookingParams } },
    async (request) => ({
      data: await listPublicNotes(deps.db, request.auth.workspace.id, request.params.bookingUuid),
    }),
  );

  app.post(
    '/bookings/:bookingUuid/public_notes',
    {
      schema: {
        tags,
        summary: 'Add a public note (201; sends no webhook)',
        params: BookingParams,
        body: PublicNoteBody,
      },
    },
    async (request, reply) => {
      const { note } = await addPublicNote(context(request), request.params.bookingUuid, request.body.value);
      return reply.status(201).send({ data: note });
    },
  );

  app.put(
    '/bookings/:bookingUuid/staffer',
    { schema: { tags, summary: 'Change the staffer', params: BookingParams, body: StafferBody } },
    async (request) => ({
      data: await changeStaffer(context(request), request.params.bookingUuid, request.body.staffer_uuid),
    }),
  );

  app.put(
    '/bookings/:bookingUuid/services',
    {
      schema: {
        tags,
        summary: 'Replace the services (order lines)',
        params: BookingParams,
        body: ServicesBody,
      },
    },
    async (request) => ({
      data: await changeServices(context(request), request.params.bookingUuid, request.body.service_uuids),
    }),
  );

  app.put(
    '/bookings/:bookingUuid/status/complete',
    {
      schema: {
        tags,
        summary: 'Complete with a payment; emits booking-succeeded',
        params: BookingParams,
        body: CompleteBody,
      },
    },
    async (request) => ({
      data: await completeBooking(context(request), request.params.bookingUuid, request.body),
    }),
  );

  app.put(
    '/bookings/:bookingUuid/status/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel (frees the time at once); emits booking-canceled',
        params: BookingParams,
        body: CancelBody,
      },
    },
    async (request) => ({
      data: await cancelBooking(
        context(request),
        request.params.bookingUuid,
        request.body?.cancel_reason ?? undefined,
      ),
    }),
  );
}
