import { Type } from 'typebox';
import { requireLocation } from '../../locations/locations.repository.js';
import { LocationParams } from '../../locations/locations.schemas.js';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Paginated, responses, Uuid } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { listCategoriesAtLocation } from '../service-categories.repository.js';

/** As a service's `category` shows it: `uuid`, `name`, `order`. */
const CategoryJson = Type.Object({
  uuid: Uuid,
  name: Type.String(),
  order: Type.Integer({ description: 'Position in lists, lowest first' }),
});

/** GET /locations/{uuid}/service-categories, a route integrations of the real service call. */
export async function serviceCategoriesRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations/:locationUuid/service-categories',
    {
      schema: {
        tags: ['reference'],
        summary: 'The categories of the services offered at a location (paginated)',
        params: LocationParams,
        querystring: PaginationQuery,
        response: responses({ 200: Paginated(CategoryJson) }),
      },
    },
    async (request) => {
      const workspace = request.auth.workspace;
      const location = await requireLocation(deps.db, workspace.id, request.params.locationUuid);
      const page = pageOf(request.query);
      const { rows, total } = await listCategoriesAtLocation(deps.db, workspace.id, location.id, page);
      return paginated(
        request,
        page,
        rows.map((row) => ({ uuid: row.id, name: row.name, order: row.position })),
        total,
      );
    },
  );
}
