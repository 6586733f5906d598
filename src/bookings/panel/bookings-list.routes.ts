import type { FastifyInstance } from 'fastify';
import { listLocationsPage } from '../../locations/locations.service.js';
import { panelTextOf } from '../../panel-kit/i18n.js';
import { pageParam } from '../../panel-kit/list-pager.js';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import type { AppDeps } from '../../platform/http/types.js';
import { todayIn } from '../../platform/time/zone.js';
import { listStaffersPage } from '../../staffers/staffers.service.js';
import { listStatuses } from '../../statuses/statuses.service.js';
import { listBookingsPage } from '../booking-reads.service.js';
import { bookingFiltersOf, chosenLocation, filterValuesOf } from './bookings-list.filters.js';
import { BookingsListPage } from './bookings-list.page.js';

const access = { config: { panelAccess: 'bookings' as const } };
const PER_PAGE = 50;
/** Choices of the staffer and location filters (a business has a handful to a few dozen). */
const MAX_CHOICES = 100;

/**
 * Bookings -> Bookings list (every role): the bookings of a date range, filtered by status,
 * staffer, customer and location, read as GET /bookings reads them. Each row links to
 * the booking's own page (/panel/bookings/{uuid}).
 */
export function bookingsListPanelRoutes(panel: FastifyInstance, deps: AppDeps): void {
  panel.get('/bookings', access, async (request, reply) => {
    const workspaceId = sessionOf(request).workspace.id;
    const all = { page: 1, perPage: MAX_CHOICES, offset: 0 };
    const [statuses, staffers, locations] = await Promise.all([
      listStatuses(deps.db, workspaceId),
      listStaffersPage(deps.db, workspaceId, all),
      listLocationsPage(deps.db, workspaceId, all),
    ]);
    const values = filterValuesOf(request.query);
    // "Today" where the chosen location is, else where the first one is.
    const zoneOf = locations.rows.find((l) => l.id === chosenLocation(values)) ?? locations.rows[0];
    const today = todayIn(zoneOf?.timezone ?? 'UTC', deps.clock.now());
    const { filters, from, to, errors } = bookingFiltersOf(values, today);
    const failed = Object.keys(errors).length > 0;
    const page = pageParam(request.query);
    const { rows, total, locationNames } = failed
      ? { rows: [], total: 0, locationNames: new Map<string, string>() }
      : await listBookingsPage(deps.db, workspaceId, filters, {
          perPage: PER_PAGE,
          offset: (page - 1) * PER_PAGE,
        });
    const shown = { ...values, from: values.from || from, to: values.to || to };
    const query = new URLSearchParams(Object.entries(shown).filter(([, value]) => value !== '')).toString();
    const text = panelTextOf(request);
    return reply.page({
      title: text.t('list.title'),
      status: failed ? 422 : 200,
      body: BookingsListPage({
        form: { values: shown, errors },
        statuses: statuses.map((status) => ({ id: status.uuid, name: status.name })),
        staffers: staffers.rows.map((staffer) => ({
          id: staffer.id,
          name: `${staffer.first_name} ${staffer.last_name}`.trim(),
        })),
        locations: locations.rows.map((location) => ({ id: location.id, name: location.name })),
        locationNames,
        bookings: rows,
        page,
        perPage: PER_PAGE,
        total,
        query,
        from,
        to,
        text,
      }),
    });
  });
}
