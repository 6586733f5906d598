import { formatMoney } from '../platform/money.js';
import { presentDuration } from '../platform/time/duration.js';
import { presentRequirements } from '../resources/resources.presenter.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';
import type { ServiceRecord } from './services.repository.js';

/** A service as the API answers it, plus buffers and the live locations that offer it. */
export function presentService(service: ServiceRecord, workspace: WorkspaceRow) {
  return {
    uuid: service.id,
    name: service.name,
    description: service.description,
    category:
      service.category_id === null
        ? null
        : { uuid: service.category_id, name: service.category_name, order: service.category_position },
    currency: workspace.currency,
    price: service.price,
    price_formatted: formatMoney(service.price, workspace.currency, workspace.locale),
    duration: presentDuration(service.duration_minutes),
    capacity: service.capacity,
    buffer_before: service.buffer_before_minutes,
    buffer_after: service.buffer_after_minutes,
    location_uuids: service.location_ids,
    // Only when on (docs/series.md): services answer as before otherwise.
    ...(service.series_bookable ? { series_bookable: true as const } : {}),
    staffer_needed: service.staffer_needed,
    resources: presentRequirements(service.resource_requirements ?? []),
  };
}
