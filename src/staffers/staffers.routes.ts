import { PaginationQuery, pageOf, paginated } from '../http/pagination.js';
import type { ApiApp, AppDeps } from '../http/types.js';
import { requireLocation } from '../locations/locations.repository.js';
import { LocationParams } from '../locations/locations.schemas.js';
import { presentStaffer } from './staffers.presenter.js';
import { listStaffersAtLocation } from './staffers.repository.js';
import { StafferCreateBody, StafferParams, StafferUpdateBody } from './staffers.schemas.js';
import { archiveStaffer, createStaffer, getStaffer, updateStaffer } from './staffers.service.js';

export async function staffersRoutes(app: ApiApp, deps: AppDeps): Promise<void> {
  app.get(
    '/locations/:locationUuid/staffers',
    {
      schema: {
        tags: ['reference'],
        summary: 'List the staffers of a location (those providing a service there)',
        params: LocationParams,
        querystring: PaginationQuery,
      },
    },
    async (request) => {
      const workspaceId = request.auth.workspace.id;
      const location = await requireLocation(deps.db, workspaceId, request.params.locationUuid);
      const page = pageOf(request.query);
      const { rows, total } = await listStaffersAtLocation(deps.db, workspaceId, location.id, page);
      return paginated(request, page, rows.map(presentStaffer), total);
    },
  );

  app.get(
    '/staffers/:stafferUuid',
    { schema: { tags: ['reference'], summary: 'One staffer', params: StafferParams } },
    async (request) => {
      const staffer = await getStaffer(deps.db, request.auth.workspace.id, request.params.stafferUuid);
      return { data: presentStaffer(staffer) };
    },
  );

  app.post(
    '/staffers',
    { schema: { tags: ['management'], summary: 'Create a staffer (201)', body: StafferCreateBody } },
    async (request, reply) => {
      const staffer = await createStaffer(deps.db, request.auth.workspace.id, request.body);
      return reply.status(201).send({ data: presentStaffer(staffer) });
    },
  );

  app.patch(
    '/staffers/:stafferUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Change a staffer (only the fields given; `services` replaces the assignment)',
        params: StafferParams,
        body: StafferUpdateBody,
      },
    },
    async (request) => {
      const staffer = await updateStaffer(
        deps.db,
        request.auth.workspace.id,
        request.params.stafferUuid,
        request.body,
      );
      return { data: presentStaffer(staffer) };
    },
  );

  app.delete(
    '/staffers/:stafferUuid',
    {
      schema: {
        tags: ['management'],
        summary: 'Archive a staffer (204, no body); they then vanish from lists and reads',
        params: StafferParams,
      },
    },
    async (request, reply) => {
      await archiveStaffer(deps.db, request.auth.workspace.id, request.params.stafferUuid);
      return reply.status(204).send();
    },
  );
}
