import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError, type FieldErrors } from '../../errors.js';
import { listLocationsWithArchived } from '../../locations/locations.service.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { formInteger } from '../../panel-kit/form-values.js';
import { emptyForm, type FormState, list, str } from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { panelContextOf } from '../../panel-kit/panel-context.js';
import { uuidParam } from '../../panel-kit/params.js';
import { noticeOf, noticesIn } from '../../panel-kit/setup-parts.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { throwIfInvalid } from '../../platform/http/validation.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import { formatMoney, moneyInputValue, parseMoneyInput } from '../../platform/money.js';
import { formatRequirements, parseRequirements } from '../../resources/resource-needs.rules.js';
import type { WorkspaceRow } from '../../workspaces/workspaces.repository.js';
import type { ServiceRecord } from '../services.repository.js';
import { ServiceCreateBody, ServiceUpdateBody } from '../services.schemas.js';
import {
  archiveService,
  createService,
  getService,
  listServiceCategories,
  listServicesWithArchived,
  updateService,
} from '../services.service.js';
import { SERVICES, ServiceFormPage, ServicesPage } from './services.page.js';

const access = { config: { panelAccess: 'setup' as const } };

const NOTICES: Record<string, PanelKey> = {
  created: 'services.created',
  saved: 'services.saved',
  archived: 'services.archived',
};

const TEXT_FIELDS = [
  'category',
  'name',
  'description',
  'duration_minutes',
  'price',
  'capacity',
  'buffer_before_minutes',
  'buffer_after_minutes',
  'resources',
  'staffer_needed',
  'series_bookable',
] as const;

function formOf(service: ServiceRecord, currency: string): FormState['values'] {
  return {
    category: service.category_name ?? '',
    name: service.name,
    description: service.description,
    duration_minutes: String(service.duration_minutes),
    price: moneyInputValue(service.price, currency),
    capacity: String(service.capacity),
    buffer_before_minutes: String(service.buffer_before_minutes),
    buffer_after_minutes: String(service.buffer_after_minutes),
    resources: formatRequirements(service.resource_requirements ?? []),
    // The box says "needs no staffer": ticked is staffer_needed false.
    staffer_needed: service.staffer_needed ? '' : 'no',
    series_bookable: service.series_bookable ? 'yes' : '',
    location_uuids: service.location_ids,
  };
}

const NEW_SERVICE: FormState['values'] = {
  duration_minutes: '60',
  capacity: '1',
  buffer_before_minutes: '0',
  buffer_after_minutes: '0',
};

/**
 * The body POST /services and PATCH /services/{uuid} take, from the form. The price is typed in
 * the currency's own units ("90.00") and sent in minor units (9000) as the API takes it. Empty
 * places and buffers are their defaults (1, 0); an empty duration is an error, as for the API.
 */
function bodyOf(values: FormState['values'], currency: string, t: PanelText['t']) {
  const text = (key: string) => (values[key] as string | undefined) ?? '';
  const errors: FieldErrors = {};
  const priceText = text('price').trim();
  const price = priceText === '' ? 0 : parseMoneyInput(priceText, currency);
  if (price === undefined) {
    errors.price = [t('services.priceError', { currency, example: moneyInputValue(9000, currency) })];
  }
  const duration = formInteger(text('duration_minutes'));
  if (duration === undefined) errors.duration_minutes = [t('services.durationRequired')];
  const needs = parseRequirements(text('resources'));
  if (!needs.ok)
    errors.resources = [t('services.resourcesLineError', { entry: needs.entry, example: '<uuid>' })];
  const body = {
    name: text('name'),
    description: text('description'),
    category: text('category').trim(),
    ...(duration !== undefined ? { duration_minutes: duration } : {}),
    ...(price !== undefined ? { price } : {}),
    capacity: formInteger(text('capacity')) ?? 1,
    buffer_before_minutes: formInteger(text('buffer_before_minutes')) ?? 0,
    buffer_after_minutes: formInteger(text('buffer_after_minutes')) ?? 0,
    location_uuids: (values.location_uuids as string[] | undefined) ?? [],
    ...(needs.ok ? { resources: needs.resources } : {}),
    staffer_needed: text('staffer_needed') !== 'no',
    series_bookable: text('series_bookable') === 'yes',
  };
  return { body, errors };
}

function valuesOf(body: unknown): FormState['values'] {
  const values: FormState['values'] = Object.fromEntries(
    TEXT_FIELDS.map((field) => [field, str(body, field)]),
  );
  values.location_uuids = list(body, 'location_uuids');
  return values;
}

/**
 * Setup → Services (owners and admins): the services of the API's /services writes, checked by the
 * same schemas and written by the same services; the slot answers follow at once (unit of work).
 */
export function servicesPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  async function renderForm(
    reply: FastifyReply,
    workspace: WorkspaceRow,
    form: FormState,
    text: PanelText,
    service?: { id: string; name: string },
    status = 200,
  ) {
    const [categories, locations] = await Promise.all([
      listServiceCategories(deps.db, workspace.id),
      listLocationsWithArchived(deps.db, workspace.id),
    ]);
    return reply.page({
      title: service ? service.name : text.t('services.add'),
      status,
      body: ServiceFormPage({
        form,
        csrf: reply.csrf(),
        currency: workspace.currency,
        categories: categories.map((category) => category.name),
        // Archived locations are no choice any more.
        locations: locations
          .filter((location) => location.archived_at === null)
          .map((location) => ({ value: location.id, label: location.name })),
        ...(service ? { service } : {}),
        text,
      }),
    });
  }

  panel.get('/setup/services', access, async (request, reply) => {
    const workspace = (await panelContextOf(request)).workspace;
    const [services, locations] = await Promise.all([
      listServicesWithArchived(deps.db, workspace.id),
      listLocationsWithArchived(deps.db, workspace.id),
    ]);
    const text = panelTextOf(request);
    const names = new Map(locations.map((location) => [location.id, location.name]));
    const buffers = (service: ServiceRecord) =>
      [
        service.buffer_before_minutes > 0
          ? text.t('services.bufferBefore', { minutes: service.buffer_before_minutes })
          : '',
        service.buffer_after_minutes > 0
          ? text.t('services.bufferAfter', { minutes: service.buffer_after_minutes })
          : '',
      ]
        .filter(Boolean)
        .join(', ');
    return reply.page({
      title: text.t('nav.services'),
      body: ServicesPage({
        services: services.map((service) => ({
          id: service.id,
          name: service.name,
          category: service.category_name,
          duration_minutes: service.duration_minutes,
          price: formatMoney(service.price, workspace.currency, workspace.locale),
          capacity: service.capacity,
          buffers: buffers(service),
          locations: service.location_ids.map((id) => names.get(id) ?? id),
          archived: service.archived_at !== null,
        })),
        ...noticeOf(request.query, noticesIn(text, NOTICES)),
        text,
      }),
    });
  });

  panel.get('/setup/services/new', access, async (request, reply) => {
    const workspace = (await panelContextOf(request)).workspace;
    return renderForm(reply, workspace, emptyForm({ ...NEW_SERVICE }), panelTextOf(request));
  });

  panel.post('/setup/services', access, async (request, reply) => {
    const workspace = (await panelContextOf(request)).workspace;
    const values = valuesOf(request.body);
    const text = panelTextOf(request);
    const { body, errors } = bodyOf(values, workspace.currency, text.t);
    try {
      throwIfInvalid(schemaErrorsOf(ServiceCreateBody, body), errors);
      // The form's key: a double click adds one service.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await createService(uow, workspace.id, body as ServiceCreateBody);
        return `${SERVICES}?notice=created`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return renderForm(
        reply,
        workspace,
        { values, errors: formErrorsOf(error, panelTextOf(request).t) },
        text,
        undefined,
        422,
      );
    }
  });

  panel.get('/setup/services/:serviceId', access, async (request, reply) => {
    const workspace = (await panelContextOf(request)).workspace;
    const service = await getService(deps.db, workspace.id, uuidParam(request, 'serviceId'));
    return renderForm(
      reply,
      workspace,
      emptyForm(formOf(service, workspace.currency)),
      panelTextOf(request),
      {
        id: service.id,
        name: service.name,
      },
    );
  });

  panel.post('/setup/services/:serviceId', access, async (request, reply) => {
    const workspace = (await panelContextOf(request)).workspace;
    // 404 before 422: a service that is not there (archived, another workspace's) has no form.
    const service = await getService(deps.db, workspace.id, uuidParam(request, 'serviceId'));
    const values = valuesOf(request.body);
    const text = panelTextOf(request);
    const { body, errors } = bodyOf(values, workspace.currency, text.t);
    try {
      throwIfInvalid(schemaErrorsOf(ServiceUpdateBody, body), errors);
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, workspace.id, async (uow) => {
        await updateService(uow, workspace.id, service.id, body as ServiceUpdateBody);
        return `${SERVICES}?notice=saved`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return renderForm(
        reply,
        workspace,
        { values, errors: formErrorsOf(error, panelTextOf(request).t) },
        text,
        { id: service.id, name: service.name },
        422,
      );
    }
  });

  panel.post('/setup/services/:serviceId/archive', access, async (request, reply) => {
    const session = sessionOf(request);
    // The form's key: a repeat gets the first redirect, not a 404 for the service it archived.
    return redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
      await archiveService(uow, session.workspace.id, uuidParam(request, 'serviceId'));
      return `${SERVICES}?notice=archived`;
    });
  });
}
