import type { PanelKey, PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { AUDIT_GROUPS, type AuditEntryView } from '../audit.service.js';

export const AUDIT = `${PANEL_PREFIX}/settings/audit`;

const ACTOR_TYPES: Record<string, PanelKey | 'Kairos'> = {
  user: 'audit.actors.user',
  api_key: 'audit.actors.api_key',
  cli: 'audit.actors.cli',
  system: 'Kairos',
};
/** What one actor is, under their name in a row. */
const ACTOR_TYPE: Record<string, PanelKey> = {
  user: 'audit.actor.user',
  api_key: 'audit.actor.api_key',
  cli: 'audit.actor.cli',
  system: 'audit.actor.system',
};

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
export function AuditPage(props: {
  query: AuditQuery;
  entries: AuditEntryView[];
  hasMore: boolean;
  text: PanelText;
}) {
  const { query } = props;
  const { t } = props.text;
  return (
    <>
      <h1>{t('nav.auditLog')}</h1>
      <form method="get" action={AUDIT} aria-label={t('audit.filter')} class="card">
        <div class="row">
          <div class="field">
            <label for="audit-group">{t('audit.what')}</label>
            <select id="audit-group" name="group">
              <option value="">{t('audit.everything')}</option>
              {Object.keys(AUDIT_GROUPS).map((value) => (
                <option key={value} value={value} selected={query.group === value}>
                  {t(`audit.group.${value as keyof typeof AUDIT_GROUPS}`)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="audit-actor">{t('audit.who')}</label>
            <select id="audit-actor" name="actor">
              <option value="">{t('audit.anyone')}</option>
              {Object.entries(ACTOR_TYPES).map(([value, label]) => (
                <option key={value} value={value} selected={query.who === value}>
                  {label === 'Kairos' ? label : t(label)}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="audit-from">{t('audit.from')}</label>
            <input id="audit-from" name="from" type="date" value={query.from} />
          </div>
          <div class="field">
            <label for="audit-to">{t('audit.to')}</label>
            <input id="audit-to" name="to" type="date" value={query.to} />
          </div>
        </div>
        <div class="row">
          <button type="submit" class="secondary">
            {t('audit.show')}
          </button>
          <a href={`${AUDIT}.csv${auditQueryString(query, 1)}`} download>
            {t('audit.csv')}
          </a>
        </div>
      </form>
      <div class="table-wrap">
        <table class="stack" aria-label={t('audit.table')}>
          <thead>
            <tr>
              <th scope="col">{t('audit.when')}</th>
              <th scope="col">{t('audit.who')}</th>
              <th scope="col">{t('audit.what')}</th>
              <th scope="col">{t('audit.details')}</th>
            </tr>
          </thead>
          <tbody>
            {props.entries.length === 0 && (
              <tr>
                <td colSpan={4} class="muted">
                  {t('audit.none')}
                </td>
              </tr>
            )}
            {props.entries.map((entry, index) => (
              <tr key={`${entry.at}-${index}`}>
                <td data-label={t('audit.when')}>{entry.at.replace('T', ' ').replace('Z', '')}</td>
                <td data-label={t('audit.who')}>
                  {entry.actor.name}
                  <div class="muted">
                    {ACTOR_TYPE[entry.actor.type] ? t(ACTOR_TYPE[entry.actor.type]!) : entry.actor.type}
                  </div>
                </td>
                <td data-label={t('audit.what')}>
                  <code>{entry.action}</code>
                  {entry.subject_uuid && <div class="muted">{entry.subject_uuid}</div>}
                </td>
                <td data-label={t('audit.details')}>
                  <code>{JSON.stringify(entry.details)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="row">
        {query.page > 1 && (
          <a href={`${AUDIT}${auditQueryString(query, query.page - 1)}`}>{t('audit.newer')}</a>
        )}
        {props.hasMore && (
          <a href={`${AUDIT}${auditQueryString(query, query.page + 1)}`}>{t('audit.older')}</a>
        )}
      </p>
    </>
  );
}
