import { answerWrite } from '../../platform/http/idempotency.js';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Data, NoContent, Paginated, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { presentLocation } from '../locations.presenter.js';
import { listLocations, requireLocation } from '../locations.repository.js';
import {
  LocationCreateBody,
  LocationJson,
  LocationParams,
  LocationUpdateBody,
} from '../locations.schemas.js';
import { archiveLocation, createLocation, updateLocation } from '../locations.service.js';

// Other features' routes under /locations/{locationUuid}/... import it from here.

export async function locationsRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations',
    {
      schema: {
        tags: ['reference'],
        summary: 'List locations',
        querystring: PaginationQuery,
        response: responses({ 200: Paginated(LocationJson) }),
      },
    },
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
    {
      schema: {
        tags: ['reference'],
        summary: 'One location',
        params: LocationParams,
        response: responses({ 200: Data(LocationJson) }),
      },
    },
    async (request) => {
      const location = await requireLocation(deps.db, request.auth.workspace.id, request.params.locationUuid);
      return { data: presentLocation(location, deps.clock.now()) };
    },
  );

  app.post(
    '/locations',
    {
      schema: {
        tags: ['management'],
        summary: 'Create a location (201)',
        body: LocationCreateBody,
        response: responses({ 201: Data(LocationJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => {
        const location = await createLocation(uow, request.auth.workspace.id, request.body);
        return { data: presentLocation(location, deps.clock.now()) };
      }),
  );

  app.patch(
    '/locations/:locationUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Change a location (only the fields given)',
        params: LocationParams,
        body: LocationUpdateBody,
        response: responses({ 200: Data(LocationJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const location = await updateLocation(
          uow,
          request.auth.workspace.id,
          request.params.locationUuid,
          request.body,
        );
        return { data: presentLocation(location, deps.clock.now()) };
      }),
  );

  app.delete(
    '/locations/:locationUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Archive a location (204, no body); it then vanishes from lists and reads',
        params: LocationParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 204, async (uow) => {
        await archiveLocation(uow, request.auth.workspace.id, request.params.locationUuid);
        return undefined;
      }),
  );
}
