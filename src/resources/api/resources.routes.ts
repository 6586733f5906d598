import { requireLocation } from '../../locations/locations.repository.js';
import { LocationParams } from '../../locations/locations.schemas.js';
import { answerWrite } from '../../platform/http/idempotency.js';
import { PaginationQuery, pageOf, paginated } from '../../platform/http/pagination.js';
import { Data, NoContent, Paginated, responses } from '../../platform/http/responses.js';
import type { ApiApp, AppDeps } from '../../platform/http/types.js';
import { presentResource } from '../resources.presenter.js';
import {
  ResourceCreateBody,
  ResourceJson,
  ResourceParams,
  ResourceUpdateBody,
} from '../resources.schemas.js';
import {
  archiveResource,
  createResource,
  getResource,
  listLocationResources,
  updateResource,
} from '../resources.service.js';

/** Resources of a location (docs/resources.md), shaped like staffers and services. */
export async function resourcesRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations/:locationUuid/resources',
    {
      schema: {
        tags: ['reference'],
        summary: 'List the live resources of a location (rooms, chairs, equipment), by type',
        params: LocationParams,
        querystring: PaginationQuery,
        response: responses({ 200: Paginated(ResourceJson) }),
      },
    },
    async (request) => {
      const workspaceId = request.auth.workspace.id;
      const location = await requireLocation(deps.db, workspaceId, request.params.locationUuid);
      const page = pageOf(request.query);
      const { rows, total } = await listLocationResources(deps.db, workspaceId, location.id, page);
      return paginated(request, page, rows.map(presentResource), total);
    },
  );

  app.get(
    '/resources/:resourceUuid',
    {
      schema: {
        tags: ['reference'],
        summary: 'One resource',
        params: ResourceParams,
        response: responses({ 200: Data(ResourceJson) }),
      },
    },
    async (request) => {
      const resource = await getResource(deps.db, request.auth.workspace.id, request.params.resourceUuid);
      return { data: presentResource(resource) };
    },
  );

  app.post(
    '/resources',
    {
      schema: {
        tags: ['management'],
        summary: 'Create a resource of a location (201)',
        body: ResourceCreateBody,
        response: responses({ 201: Data(ResourceJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 201, async (uow) => {
        const resource = await createResource(uow, request.auth.workspace.id, request.body);
        return { data: presentResource(resource) };
      }),
  );

  app.patch(
    '/resources/:resourceUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Change a resource (only the fields given; its location stays)',
        params: ResourceParams,
        body: ResourceUpdateBody,
        response: responses({ 200: Data(ResourceJson) }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 200, async (uow) => {
        const resource = await updateResource(
          uow,
          request.auth.workspace.id,
          request.params.resourceUuid,
          request.body,
        );
        return { data: presentResource(resource) };
      }),
  );

  app.delete(
    '/resources/:resourceUuid',
    {
      schema: {
        tags: ['management'],
        summary:
          'Archive a resource (204, no body); bookings that held it keep naming it. 409 resource_in_use while a service needs it by name',
        params: ResourceParams,
        response: responses({ 204: NoContent }),
      },
    },
    async (request, reply) =>
      answerWrite(request, reply, deps.uow, 204, async (uow) => {
        await archiveResource(uow, request.auth.workspace.id, request.params.resourceUuid);
        return undefined;
      }),
  );
}
