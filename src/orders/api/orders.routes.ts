import { Type } from 'typebox';
import { listBookingViews } from '../../bookings/bookings.repository.js';
import { OrderJson } from '../../bookings/bookings.schemas.js';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Data, IsoInstant, Paginated, responses, Uuid } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { presentOrderResource } from '../orders.presenter.js';
import { requireOrderView } from '../orders.repository.js';

const OrderResourceJson = Type.Object({
  ...OrderJson.properties,
  booking_uuid: Uuid,
  location_uuid: Uuid,
  customer_uuid: Uuid,
  status: Type.Enum(['open', 'paid', 'canceled'], {
    description: 'paid: its booking was completed; canceled: its booking was canceled; else open',
  }),
  created_at: IsoInstant,
  updated_at: IsoInstant,
});

const OrdersQuery = Type.Object({
  ...PaginationQuery.properties,
  location_uuid: Type.Optional(Type.String({ format: 'uuid' })),
  customer_uuid: Type.Optional(Type.String({ format: 'uuid' })),
});

/** GET /orders and /orders/{uuid}, as in the real service: each booking's order, with its booking uuid. */
export async function ordersRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  const tags = ['orders'];
  app.get(
    '/orders',
    {
      schema: {
        tags,
        summary: 'List orders (one per booking), by booking start; filter by location or customer',
        querystring: OrdersQuery,
        response: responses({ 200: Paginated(OrderResourceJson) }),
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const workspace = request.auth.workspace;
      const { rows, total } = await listBookingViews(
        deps.db,
        workspace.id,
        { location_uuid: request.query.location_uuid, customer_uuid: request.query.customer_uuid },
        page,
      );
      return paginated(
        request,
        page,
        rows.map((row) => presentOrderResource(row, workspace)),
        total,
      );
    },
  );

  app.get(
    '/orders/:orderUuid',
    {
      schema: {
        tags,
        summary: 'One order',
        params: Type.Object({ orderUuid: Type.String({ format: 'uuid' }) }),
        response: responses({ 200: Data(OrderResourceJson) }),
      },
    },
    async (request) => {
      const workspace = request.auth.workspace;
      return {
        data: presentOrderResource(
          await requireOrderView(deps.db, workspace.id, request.params.orderUuid),
          workspace,
        ),
      };
    },
  );
}
