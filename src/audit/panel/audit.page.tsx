import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { AUDIT_GROUPS, type AuditEntryView } from '../audit.service.js';

export const AUDIT = `${PANEL_PREFIX}/settings/audit`;

const ACTOR_TYPES = { user: 'Panel users', api_key: 'API keys', cli: 'CLI', system: 'Kairos' } as const;
/** What one actor is, under their name in a row. */
const ACTOR_TYPE = { user: 'Panel user', api_key: 'API key', cli: 'Operator', system: 'Worker' } as const;

export interface AuditQuery {
  group: string;
  who: string;
  from: string;
  to: string;
  page: number;
}

/** The filters as a query string (for the pager and the CSV link). */
export function auditQueryString(query: AuditQuery, page = query.page): string {
  const params = new URLSearchParams();
  for (const [key, value] of [
    ['group', query.group],
    ['actor', query.who],
    ['from', query.from],
    ['to', query.to],
  ] as const)
    if (value) params.set(key, value);
  if (page > 1) params.set('page', String(page));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Settings → Audit log (owners): who changed what, newest first, filtered, exportable. */
export function AuditPage(props: { query: AuditQuery; entries: AuditEntryView[]; hasMore: boolean }) {
  const { query } = props;
  return (
    <>
      <h1>Audit log</h1>
      <form method="get" action={AUDIT} aria-label="Filter the log" class="card">
        <div class="row">
          <div class="field">
            <label for="audit-group">What</label>
            <select id="audit-group" name="group">
              <option value="">Everything</option>
              {Object.entries(AUDIT_GROUPS).map(([value, label]) => (
                <option key={value} value={value} selected={query.group === value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="audit-actor">Who</label>
            <select id="audit-actor" name="actor">
              <option value="">Anyone</option>
              {Object.entries(ACTOR_TYPES).map(([value, label]) => (
                <option key={value} value={value} selected={query.who === value}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="audit-from">From (UTC day)</label>
            <input id="audit-from" name="from" type="date" value={query.from} />
          </div>
          <div class="field">
            <label for="audit-to">To (UTC day)</label>
            <input id="audit-to" name="to" type="date" value={query.to} />
          </div>
        </div>
        <div class="row">
          <button type="submit" class="secondary">
            Show
          </button>
          <a href={`${AUDIT}.csv${auditQueryString(query, 1)}`} download>
            Download as CSV
          </a>
        </div>
      </form>
      <div class="table-wrap">
        <table class="stack" aria-label="Audit log, newest first">
          <thead>
            <tr>
              <th scope="col">When (UTC)</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {props.entries.length === 0 && (
              <tr>
                <td colSpan={4} class="muted">
                  Nothing logged for these filters.
                </td>
              </tr>
            )}
            {props.entries.map((entry, index) => (
              <tr key={`${entry.at}-${index}`}>
                <td data-label="When (UTC)">{entry.at.replace('T', ' ').replace('Z', '')}</td>
                <td data-label="Who">
                  {entry.actor.name}
                  <div class="muted">
                    {ACTOR_TYPE[entry.actor.type as keyof typeof ACTOR_TYPE] ?? entry.actor.type}
                  </div>
                </td>
                <td data-label="What">
                  <code>{entry.action}</code>
                  {entry.subject_uuid && <div class="muted">{entry.subject_uuid}</div>}
                </td>
                <td data-label="Details">
                  <code>{JSON.stringify(entry.details)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="row">
        {query.page > 1 && <a href={`${AUDIT}${auditQueryString(query, query.page - 1)}`}>Newer</a>}
        {props.hasMore && <a href={`${AUDIT}${auditQueryString(query, query.page + 1)}`}>Older</a>}
      </p>
    </>
  );
}
