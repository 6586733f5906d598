import type { FastifyInstance } from 'fastify';
import { AppError, type FieldErrors } from '../../errors.js';
import { formErrorsOf } from '../../panel-kit/form-errors.js';
import { emptyForm, type FormState, str } from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, panelTextOf } from '../../panel-kit/i18n.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { uuidParam } from '../../panel-kit/params.js';
import { noticeOf, noticesIn } from '../../panel-kit/setup-parts.js';
import type { TimeRangeJson } from '../../platform/db/schema.js';
import { redirectOnce } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/http/types.js';
import { throwIfInvalid } from '../../platform/http/validation.js';
import { schemaErrorsOf } from '../../platform/http/validator.js';
import type { LocationRow } from '../locations.repository.js';
import { LocationCreateBody, LocationUpdateBody, WEEKDAYS } from '../locations.schemas.js';
import {
  archiveLocation,
  createLocation,
  getLocation,
  listLocationsWithArchived,
  updateLocation,
} from '../locations.service.js';
import { HOURS_MAX_ROWS, hoursKey, LOCATIONS, LocationFormPage, LocationsPage } from './locations.page.js';

const access = { config: { panelAccess: 'setup' as const } };

const NOTICES: Record<string, PanelKey> = {
  created: 'locations.created',
  saved: 'locations.saved',
  archived: 'locations.archived',
};

const ADDRESS_FIELDS = ['address_1', 'address_2', 'city', 'postal_code', 'country_iso'] as const;

/** The form's values of a stored location. */
function formOf(location: LocationRow): FormState['values'] {
  const values: FormState['values'] = {
    name: location.name,
    timezone: location.timezone,
    phone: location.phone,
    description: location.description,
  };
  for (const field of ADDRESS_FIELDS) values[`address.${field}`] = location[field];
  for (const day of WEEKDAYS) {
    (location.opening_hours[day] ?? []).forEach((range, index) => {
      values[hoursKey(day, index, 'from')] = range.from;
      values[hoursKey(day, index, 'to')] = range.to;
    });
  }
  return values;
}

/** What the form sent, as typed (what a 422 shows again). */
function valuesOf(body: unknown): FormState['values'] {
  const values: FormState['values'] = {
    name: str(body, 'name'),
    timezone: str(body, 'timezone').trim(),
    phone: str(body, 'phone'),
    description: str(body, 'description'),
  };
  for (const field of ADDRESS_FIELDS) values[`address.${field}`] = str(body, `address.${field}`);
  for (const day of WEEKDAYS) {
    for (let index = 0; index < HOURS_MAX_ROWS; index++) {
      for (const end of ['from', 'to'] as const) {
        const key = hoursKey(day, index, end);
        values[key] = str(body, key).trim();
      }
    }
  }
  return values;
}

/**
 * The body POST /locations takes, from the form: empty range rows are left out, so a day without
 * ranges is closed. `rows` maps each range of the body back to its row of the form, for the errors.
 */
function bodyOf(values: FormState['values'], t: PanelText['t']) {
  const text = (key: string) => (values[key] as string | undefined) ?? '';
  const hours: Record<string, TimeRangeJson[]> = {};
  const rows: Record<string, number[]> = {};
  const halfFilled: FieldErrors = {};
  for (const day of WEEKDAYS) {
    const ranges: TimeRangeJson[] = [];
    const formRows: number[] = [];
    for (let index = 0; index < HOURS_MAX_ROWS; index++) {
      const from = text(hoursKey(day, index, 'from'));
      const to = text(hoursKey(day, index, 'to'));
      if (from === '' && to === '') continue;
      const at = ranges.length;
      ranges.push({ from, to });
      formRows.push(index);
      // On the empty end's own key, so this message replaces the schema's pattern message.
      if (from === '' || to === '') {
        halfFilled[`opening_hours.${day}.${at}.${from === '' ? 'from' : 'to'}`] = [t('locations.bothTimes')];
      }
    }
    if (ranges.length > 0) {
      hours[day] = ranges;
      rows[day] = formRows;
    }
  }
  const body = {
    name: text('name'),
    timezone: text('timezone'),
    phone: text('phone'),
    description: text('description'),
    address: Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, text(`address.${field}`).trim()])),
    opening_hours: hours,
  };
  return { body, rows, halfFilled };
}

/** `opening_hours.mon.0.to` of the body is `opening_hours.mon.<row>.to` of the form. */
function errorsOnRows(errors: FieldErrors, rows: Record<string, number[]>): FieldErrors {
  const mapped: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const match = /^opening_hours\.([a-z]{3})\.(\d+)(.*)$/.exec(key);
    const row = match ? rows[match[1]!]?.[Number(match[2])] : undefined;
    const field = match && row !== undefined ? `opening_hours.${match[1]}.${row}${match[3]}` : key;
    mapped[field] = [...(mapped[field] ?? []), ...messages];
  }
  return mapped;
}

/**
 * Setup → Locations (owners and admins): the locations of POST/PATCH/DELETE /locations, checked by
 * the same schemas and written by the same services (archived, never deleted).
 */
export function locationsPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/setup/locations', access, async (request, reply) => {
    const locations = await listLocationsWithArchived(deps.db, sessionOf(request).workspace.id);
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('nav.locations'),
      body: LocationsPage({ locations, ...noticeOf(request.query, noticesIn(text, NOTICES)), text }),
    });
  });

  panel.get('/setup/locations/new', access, async (request, reply) => {
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('locations.add'),
      body: LocationFormPage({ form: emptyForm(), csrf: reply.csrf(), text }),
    });
  });

  panel.post('/setup/locations', access, async (request, reply) => {
    const session = sessionOf(request);
    const text = panelTextOf(request);
    const values = valuesOf(request.body);
    const { body, rows, halfFilled } = bodyOf(values, text.t);
    try {
      throwIfInvalid(schemaErrorsOf(LocationCreateBody, body), halfFilled);
      // The form's key: a double click adds one location.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await createLocation(uow, session.workspace.id, body as LocationCreateBody);
        return `${LOCATIONS}?notice=created`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return reply.page({
        title: text.t('locations.add'),
        status: 422,
        body: LocationFormPage({
          form: { values, errors: errorsOnRows(formErrorsOf(error, panelTextOf(request).t), rows) },
          csrf: reply.csrf(),
          text,
        }),
      });
    }
  });

  panel.get('/setup/locations/:locationId', access, async (request, reply) => {
    const session = sessionOf(request);
    const location = await getLocation(deps.db, session.workspace.id, uuidParam(request, 'locationId'));
    const text = panelTextOf(request);
    return reply.page({
      title: location.name,
      body: LocationFormPage({
        form: emptyForm(formOf(location)),
        csrf: reply.csrf(),
        location: { id: location.id, name: location.name },
        text,
      }),
    });
  });

  panel.post('/setup/locations/:locationId', access, async (request, reply) => {
    const session = sessionOf(request);
    // 404 before 422: a location that is not there (archived, another workspace's) has no form.
    const location = await getLocation(deps.db, session.workspace.id, uuidParam(request, 'locationId'));
    const text = panelTextOf(request);
    const values = valuesOf(request.body);
    const { body, rows, halfFilled } = bodyOf(values, text.t);
    try {
      throwIfInvalid(schemaErrorsOf(LocationUpdateBody, body), halfFilled);
      // The form's key: a double click saves once and answers both with the same redirect.
      return await redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
        await updateLocation(uow, session.workspace.id, location.id, body as LocationUpdateBody);
        return `${LOCATIONS}?notice=saved`;
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode !== 422 || !error.errors) throw error;
      return reply.page({
        title: location.name,
        status: 422,
        body: LocationFormPage({
          form: { values, errors: errorsOnRows(formErrorsOf(error, panelTextOf(request).t), rows) },
          csrf: reply.csrf(),
          location: { id: location.id, name: location.name },
          text,
        }),
      });
    }
  });

  panel.post('/setup/locations/:locationId/archive', access, async (request, reply) => {
    const session = sessionOf(request);
    // The form's key: a repeat gets the first redirect, not a 404 for the location it archived.
    return redirectOnce(request, reply, deps.uow, session.workspace.id, async (uow) => {
      await archiveLocation(uow, session.workspace.id, uuidParam(request, 'locationId'));
      return `${LOCATIONS}?notice=archived`;
    });
  });
}
