import { BOOKING_FORM_FIELDS } from './workspace-settings.rules.js';
import type { WorkspaceRow } from './workspaces.repository.js';

/** The workspace as GET /workspace shows it (it includes `slug`, the Workspace header's value). */
export function presentWorkspace(workspace: WorkspaceRow) {
  return {
    uuid: workspace.id,
    slug: workspace.slug,
    name: workspace.name,
    currency: workspace.currency,
    locale: workspace.locale,
    // In the documented field order: jsonb keeps keys sorted by length, not as written.
    booking_form: Object.fromEntries(
      BOOKING_FORM_FIELDS.map((field) => [field, workspace.booking_form[field]]),
    ),
    staffer_selection: workspace.staffer_selection,
    slot_step_minutes: workspace.slot_step_minutes,
    min_notice_minutes: workspace.min_notice_minutes,
    horizon_days: workspace.horizon_days,
    manage_cutoff_minutes: workspace.manage_cutoff_minutes,
    embed_origins: workspace.embed_origins,
    // What integrations show about the business; null while not set.
    country_iso: workspace.country_iso === '' ? null : workspace.country_iso,
    customer_retention_months: workspace.customer_retention_months,
    contacts: {
      phone: workspace.contact_phone === '' ? null : workspace.contact_phone,
      email: workspace.contact_email === '' ? null : workspace.contact_email,
    },
    created_at: workspace.created_at.toISOString(),
    updated_at: workspace.updated_at.toISOString(),
  };
}
