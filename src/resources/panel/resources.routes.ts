import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { getLocation, listLocationsWithArchived } from '../../locations/locations.service.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { formInteger } from '../../panel-kit/form-values.js';
import { emptyForm, type FormState, str } from '../../panel-kit/forms.js';
import { type PanelKey, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { uuidParam } from '../../panel-kit/params.js';
import { noticeOf, noticesIn } from '../../panel-kit/setup-parts.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { throwIfInvalid } from '../../platform/http/validation.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import { ResourceCreateBody, ResourceUpdateBody } from '../resources.schemas.js';
import {
  archiveResource,
  createResource,
  getResource,
  listResourcesWithArchived,
  ResourceNamedByServices,
  updateResource,
} from '../resources.service.js';
import { RESOURCES, ResourceFormPage, ResourcesPage } from './resources.page.js';

const access = { config: { panelAccess: 'setup' as const } };

const NOTICES: Record<string, PanelKey> = {
  created: 'resources.created',
  saved: 'resources.saved',
  archived: 'resources.archived',
};

const valuesOf = (body: unknown): FormState['values'] => ({
  name: str(body, 'name'),
  type: str(body, 'type').trim().toLowerCase(),
  capacity: str(body, 'capacity'),
});
const bodyOf = (values: FormState['values']) => ({
  name: values.name as string,
  type: values.type as string,
  capacity: formInteger(values.capacity as string) ?? 1,
});

/**
 * Setup → Resources (owners and admins): each live location's units, written through the
 * services of /resources with the same schemas; archived, never deleted (docs/resources.md).
 */
export function resourcesPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/setup/resources', access, async (request, reply) => {
    const workspaceId = sessionOf(request).workspace.id;
    const [locations, resources] = await Promise.all([
      listLocationsWithArchived(deps.db, workspaceId),
      listResourcesWithArchived(deps.db, workspaceId),
    ]);
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('nav.resources'),
      body: ResourcesPage({
        locations: locations
          .filter((location) => location.archived_at === null)
          .map((location) => ({
            location: { id: location.id, name: location.name },
            resources: resources.filter((resource) => resource.location_id === location.id),
          })),
        ...noticeOf(request.query, noticesIn(text, NOTICES)),
        text,
      }),
    });
  });

  panel.get('/setup/resources/:locationId/new', access, async (request, reply) => {
    const session = sessionOf(request);
    const location = await getLocation(deps.db, session.workspace.id, uuidParam(request, 'locationId'));
    return reply.page({
      title: panelTextOf(request).t('resources.add'),
      body: ResourceFormPage({
        form: emptyForm({ type: 'room', capacity: '1' }),
        csrf: reply.csrf(),
        location: { id: location.id, name: location.name },
        text: panelTextOf(request),
      }),
    });
  });

  panel.post('/setup/resources/:locationId', access, async (request, reply) => {
    const session = sessionOf(request);
    const location = await getLocation(deps.db, session.workspace.id, uuidParam(request, 'locationId'));
    const values = valuesOf(request.body);
    const body = { ...bodyOf(values), location_uuid: location.id };
    try {
      throwIfInvalid(schemaErrorsOf(ResourceCreateBody, body), {});
      // The form's key: a double click adds one resource.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await createResource(uow, session.workspace.id, body as ResourceCreateBody);
        return `${RESOURCES}?notice=created`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return reply.page({
        title: panelTextOf(request).t('resources.add'),
        status: 422,
        body: ResourceFormPage({
          form: { values, errors: formErrorsOf(error, panelTextOf(request).t) },
          csrf: reply.csrf(),
          location: { id: location.id, name: location.name },
          text: panelTextOf(request),
        }),
      });
    }
  });

  panel.get('/setup/resources/:locationId/:resourceId', access, async (request, reply) => {
    const session = sessionOf(request);
    const { location, resource } = await resourceAt(deps, session.workspace.id, request);
    return reply.page({
      title: resource.name,
      body: ResourceFormPage({
        form: emptyForm({ name: resource.name, type: resource.type, capacity: String(resource.capacity) }),
        csrf: reply.csrf(),
        location: { id: location.id, name: location.name },
        text: panelTextOf(request),
        resource: { id: resource.id, name: resource.name },
      }),
    });
  });

  panel.post('/setup/resources/:locationId/:resourceId', access, async (request, reply) => {
    const session = sessionOf(request);
    // 404 before 422: a resource that is not there (archived, another location's) has no form.
    const { location, resource } = await resourceAt(deps, session.workspace.id, request);
    const values = valuesOf(request.body);
    const body = bodyOf(values);
    try {
      throwIfInvalid(schemaErrorsOf(ResourceUpdateBody, body), {});
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await updateResource(uow, session.workspace.id, resource.id, body as ResourceUpdateBody);
        return `${RESOURCES}?notice=saved`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      const text = panelTextOf(request);
      const errors =
        error instanceof ResourceNamedByServices
          ? { type: [text.t('resources.typeInUse', { services: error.services.join(', ') })] }
          : formErrorsOf(error, text.t);
      return reply.page({
        title: resource.name,
        status: 422,
        body: ResourceFormPage({
          form: { values, errors },
          csrf: reply.csrf(),
          location: { id: location.id, name: location.name },
          text: panelTextOf(request),
          resource: { id: resource.id, name: resource.name },
        }),
      });
    }
  });

  panel.post('/setup/resources/:locationId/:resourceId/archive', access, async (request, reply) => {
    const session = sessionOf(request);
    const { location, resource } = await resourceAt(deps, session.workspace.id, request);
    try {
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await archiveResource(uow, session.workspace.id, resource.id);
        return `${RESOURCES}?notice=archived`;
      });
    } catch (error) {
      if (!(error instanceof ResourceNamedByServices)) throw error;
      // The resource's page again, saying which services need it by name.
      const text = panelTextOf(request);
      return reply.page({
        title: resource.name,
        status: 409,
        body: ResourceFormPage({
          form: {
            values: { name: resource.name, type: resource.type, capacity: String(resource.capacity) },
            errors: { archive: [text.t('resources.inUse', { services: error.services.join(', ') })] },
          },
          csrf: reply.csrf(),
          location: { id: location.id, name: location.name },
          text,
          resource: { id: resource.id, name: resource.name },
        }),
      });
    }
  });
}

/** The location and its live resource the path names; 404 for another location's resource. */
async function resourceAt(deps: AppDeps, workspaceId: string, request: Parameters<typeof uuidParam>[0]) {
  const location = await getLocation(deps.db, workspaceId, uuidParam(request, 'locationId'));
  const resource = await getResource(deps.db, workspaceId, uuidParam(request, 'resourceId'));
  if (resource.location_id !== location.id) throw new AppError(404, 'not_found', 'Resource not found.');
  return { location, resource };
}
