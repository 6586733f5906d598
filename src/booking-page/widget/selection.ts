import type { LocationRow } from '../../locations/locations.repository.js';
import { formatMoney } from '../../platform/money.js';
import { parseInstant } from '../../platform/time/instant.js';
import { isUuid } from '../../platform/uuid.js';
import type { ServiceRecord } from '../../services/services.repository.js';
import type { StafferRecord } from '../../staffers/staffers.repository.js';
import type { WorkspaceRow } from '../../workspaces/workspaces.repository.js';
import type { ServiceGroup } from '../booking-page.service.js';
import type { Catalog } from '../catalog.js';
import type { Summary } from './details.page.js';
import type { PageContext, PageState } from './state.js';

/**
 * Which step the state in the URL leads to: the first choice still missing. A choice that is no
 * longer valid (an archived service, a staffer who left, a deep link to another workspace's
 * uuid) is dropped and asked again instead of failing.
 */
export type Resolved =
  | { step: 'location'; locations: LocationRow[] }
  | { step: 'service'; location: LocationRow; groups: ServiceGroup[]; back: PageState | undefined }
  | {
      step: 'staffer';
      location: LocationRow;
      service: ServiceRecord;
      staffers: StafferRecord[];
      offerAny: boolean;
    }
  | { step: 'slot'; selection: Selection }
  | { step: 'details'; selection: Selection; start: number };

export interface Selection {
  location: LocationRow;
  service: ServiceRecord;
  /** undefined = any available staffer (automatic assignment). */
  staffer: StafferRecord | undefined;
  /** There was a choice of location / of staffer (for the back links). */
  severalLocations: boolean;
  stafferStep: boolean;
}

export async function resolveSelection(
  catalog: Catalog,
  workspace: WorkspaceRow,
  state: PageState,
): Promise<Resolved> {
  const locations = await catalog.locations();
  const location =
    locations.find((l) => l.id === state.location) ?? (locations.length === 1 ? locations[0] : undefined);
  if (!location) return { step: 'location', locations };
  const groups = await catalog.services(location.id);
  const service = isUuid(state.service)
    ? groups.flatMap((g) => g.services).find((s) => s.id === state.service)
    : undefined;
  const severalLocations = locations.length > 1;
  if (!service) {
    return {
      step: 'service',
      location,
      groups,
      back: severalLocations ? { location: undefined } : undefined,
    };
  }
  if (service.staffer_needed === false) {
    // A rental (docs/resources.md "Rentals"): no staffer to choose, none named.
    const selection = { location, service, staffer: undefined, severalLocations, stafferStep: false };
    const start = state.at === undefined ? undefined : parseInstant(state.at);
    if (start === undefined) return { step: 'slot', selection };
    return { step: 'details', selection, start };
  }
  const staffers = await catalog.staffers(location.id, service.id);
  const offerAny = workspace.staffer_selection === 'automatic';
  let staffer = staffers.find((s) => s.id === state.staffer);
  const any = state.staffer === 'any' && offerAny;
  // One staffer only: nothing to choose.
  const stafferStep = staffers.length > 1;
  if (!staffer && !any && !stafferStep && staffers.length === 1) staffer = staffers[0];
  if (!staffer && !any) {
    return { step: 'staffer', location, service, staffers, offerAny };
  }
  const selection = { location, service, staffer, severalLocations, stafferStep };
  const start = state.at === undefined ? undefined : parseInstant(state.at);
  if (start === undefined) return { step: 'slot', selection };
  return { step: 'details', selection, start };
}

export function summaryOf(
  ctx: PageContext,
  workspace: WorkspaceRow,
  selection: Selection,
  start: number,
): Summary {
  return {
    service: selection.service.name,
    duration: ctx.t.minutes(selection.service.duration_minutes),
    price: formatMoney(selection.service.price, workspace.currency, ctx.locale),
    staffer: selection.staffer
      ? `${selection.staffer.first_name} ${selection.staffer.last_name}`.trim()
      : selection.service.staffer_needed === false
        ? ''
        : ctx.t.anyStaffer,
    location: selection.location.name,
    locationZone: selection.location.timezone,
    start,
  };
}
