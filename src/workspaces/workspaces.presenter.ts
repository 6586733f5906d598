import type { WorkspaceRow } from './workspaces.repository.js';

/** The workspace as GET /workspace shows it (SPEC: includes `slug`). */
export function presentWorkspace(workspace: WorkspaceRow) {
  return {
    uuid: workspace.id,
    slug: workspace.slug,
    name: workspace.name,
    currency: workspace.currency,
    locale: workspace.locale,
    booking_form: workspace.booking_form,
    staffer_selection: workspace.staffer_selection,
    slot_step_minutes: workspace.slot_step_minutes,
    min_notice_minutes: workspace.min_notice_minutes,
    horizon_days: workspace.horizon_days,
    created_at: workspace.created_at.toISOString(),
    updated_at: workspace.updated_at.toISOString(),
  };
}
