import type { ResourceRequirementJson } from '../platform/db/schema.js';

/**
 * A service's requirements as one line of text, for the panel's service form (docs/resources.md):
 * entries split by commas, each `type` (one unit), `N type` (N units), or `type:uuid` (that named
 * unit). Pure; the API's schema and services still check what the line gives.
 */
export function formatRequirements(requirements: ResourceRequirementJson[]): string {
  return requirements
    .map((r) =>
      r.resource_id ? `${r.type}:${r.resource_id}` : r.units > 1 ? `${r.units} ${r.type}` : r.type,
    )
    .join(', ');
}

const ENTRY = /^(?:(\d{1,2})\s+)?([a-z][a-z0-9_-]{0,39})(?::([0-9a-f-]{36}))?$/;

/** The line back as the API's `resources`; a bad entry is named (the form words it). */
export function parseRequirements(
  line: string,
):
  | { ok: true; resources: { type: string; units: number; resource_uuid: string | null }[] }
  | { ok: false; entry: string } {
  const entries = line
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  const resources: { type: string; units: number; resource_uuid: string | null }[] = [];
  for (const entry of entries) {
    const match = ENTRY.exec(entry.replace(/\s+/g, ' '));
    if (!match || (match[1] !== undefined && match[3] !== undefined) || match[1] === '0')
      return { ok: false, entry };
    resources.push({
      type: match[2]!,
      units: match[1] ? Number(match[1]) : 1,
      resource_uuid: match[3] ?? null,
    });
  }
  return { ok: true, resources };
}
