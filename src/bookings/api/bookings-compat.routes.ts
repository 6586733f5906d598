import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { UnitOfWork } from '../../platform/db/unit-of-work.js';
import { answerWrite } from '../../platform/http/idempotency.js';
import { Nullable } from '../../platform/http/nullable.js';
import { Data, DataList, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { createCartBookings } from '../booking-cart.js';
import { cancelBooking } from '../booking-changes.service.js';
import { presentBooking } from '../bookings.presenter.js';
import { BookingJson, BookingParams, CancelBody } from '../bookings.schemas.js';
import type { BookingContext } from '../bookings.service.js';

const CartItemBody = Type.Object({
  reserved_on: Type.Optional(
    Type.String({ maxLength: 64, description: 'UTC ISO 8601, e.g. 2026-09-10T12:00:00Z' }),
  ),
  datetime_start: Type.Optional(
    Type.String({ maxLength: 64, description: 'The same as reserved_on; one of the two is required' }),
  ),
  service_uuids: Type.Optional(
    Type.Array(Type.String({ format: 'uuid' }), {
      minItems: 1,
      maxItems: 20,
      description: 'The services of this booking, in the order they are done',
    }),
  ),
  services: Type.Optional(
    Type.Array(
      Type.Object({
        uuid: Type.Optional(Type.String({ format: 'uuid' })),
        service_uuid: Type.Optional(
          Type.String({ format: 'uuid', description: 'The same as uuid; one of the two is required' }),
        ),
        staffer_uuid: Type.Optional(
          Nullable(
            Type.String({
              format: 'uuid',
              description: "The item's staffer: one booking has one, so every service names the same",
            }),
          ),
        ),
      }),
      {
        minItems: 1,
        maxItems: 20,
        description: 'The same as service_uuids, as objects; one of the two is required',
      },
    ),
  ),
  staffer_uuid: Type.Optional(
    Nullable(
      Type.String({ format: 'uuid', description: 'Required unless staffers are assigned automatically' }),
    ),
  ),
});

/** POST /bookings/cart: one booking per item, each with several services, for one customer. */
export const CartBody = Type.Object({
  location_uuid: Type.String({ format: 'uuid' }),
  items: Type.Array(CartItemBody, { minItems: 1, maxItems: 10 }),
  customer_phone: Type.String({ maxLength: 40, description: 'International format, e.g. +4915112345678' }),
  customer_first_name: Type.Optional(Type.String({ maxLength: 200 })),
  customer_last_name: Type.Optional(Type.String({ maxLength: 200 })),
  customer_email: Type.Optional(Type.String({ maxLength: 320 })),
  booking_comment: Type.Optional(Type.String({ maxLength: 5000 })),
  booking_callback: Type.Optional(Nullable(Type.Boolean())),
  source: Type.Optional(Type.String({ maxLength: 100 })),
});

/** Routes the real service has under other names or shapes, which integrations call. */
export async function bookingsCompatRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const context = (request: FastifyRequest, uow: UnitOfWork): BookingContext => ({
    ...request.context,
    db: deps.db,
    uow,
  });
  const tags = ['bookings'];

  app.post(
    '/bookings/:bookingUuid/set-booking-cancel',
    {
      schema: {
        tags,
        summary: 'Cancel; the same as PUT /bookings/{uuid}/status/cancel (emits booking-canceled)',
        params: BookingParams,
        body: CancelBody,
        response: responses({ 200: Data(BookingJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const booking = await cancelBooking(
          context(request, uow),
          request.params.bookingUuid,
          request.body?.cancel_reason ?? undefined,
        );
        return { data: presentBooking(booking, request.auth.workspace, deps.linkBase()) };
      }),
  );

  app.post(
    '/bookings/cart',
    {
      schema: {
        tags,
        summary: 'Book several services at once: one booking per item, all or none (201)',
        description:
          'Each item is one booking of all its services in order (durations add up) at `reserved_on`. ' +
          'The customer fields are those of POST /bookings and apply to every item. A refused item ' +
          'refuses the whole cart; errors name the item, e.g. `items.1.reserved_on`.',
        body: CartBody,
        response: responses({ 201: DataList(BookingJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => {
        const { location_uuid, items, ...customer } = request.body;
        const bookings = await createCartBookings(context(request, uow), {
          ...customer,
          location_uuid,
          items,
        });
        return {
          data: bookings.map((booking) => presentBooking(booking, request.auth.workspace, deps.linkBase())),
        };
      }),
  );
}
