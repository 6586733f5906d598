import { presentOrder } from '../bookings/bookings.presenter.js';
import type { BookingView } from '../bookings/bookings.repository.js';
import { toUtcIso } from '../platform/time/zone.js';
import type { WorkspaceRow } from '../workspaces/workspaces.repository.js';

/** GET /orders: a booking's order as a resource of its own, naming its booking (as the real service does). */
export function presentOrderResource(view: BookingView, workspace: WorkspaceRow) {
  return {
    ...presentOrder(view, workspace),
    booking_uuid: view.id,
    location_uuid: view.location_id,
    customer_uuid: view.customer_id,
    status: orderStatus(view),
    created_at: toUtcIso(new Date(view.created_at).getTime()),
    updated_at: toUtcIso(new Date(view.updated_at).getTime()),
  };
}

function orderStatus(view: BookingView): 'open' | 'paid' | 'canceled' {
  if (view.status_type === 'completed') return 'paid';
  if (view.status_type === 'canceled') return 'canceled';
  return 'open';
}
