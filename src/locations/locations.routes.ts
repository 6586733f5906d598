import { Type } from 'typebox';
import { PaginationQuery, pageOf, paginated } from '../http/pagination.js';
import type { ApiApp, AppDeps } from '../http/types.js';
import { presentLocation } from './locations.presenter.js';
import { listLocations, requireLocation } from './locations.repository.js';

export const LocationParams = Type.Object({ locationUuid: Type.String({ format: 'uuid' }) });

export async function locationsRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations',
    { schema: { tags: ['reference'], summary: 'List locations', querystring: PaginationQuery } },
    async (request) => {
      const page = pageOf(request.query);
      const { rows, total } = await listLocations(deps.db, request.auth.workspace.id, page);
      const now = deps.clock.now();
      return paginated(
        request,
        page,
        rows.map((row) => presentLocation(row, now)),
        total,
      );
    },
  );

  app.get(
    '/locations/:locationUuid',
    { schema: { tags: ['reference'], summary: 'One location', params: LocationParams } },
    async (request) => {
      const location = await requireLocation(deps.db, request.auth.workspace.id, request.params.locationUuid);
      return { data: presentLocation(location, deps.clock.now()) };
    },
  );
}
