import { PostForm } from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { Notice } from '../../panel-kit/setup-parts.js';
import { formatDate, formatDateTime } from '../../platform/time/format.js';
import type { EntryView, OfferRow } from '../waitlist.repository.js';

export const WAITLIST = `${PANEL_PREFIX}/waitlist`;

export interface WaitlistPageProps {
  entries: EntryView[];
  offerOf: Map<string, OfferRow>;
  services: { id: string; name: string }[];
  staffers: { id: string; name: string }[];
  filter: { serviceId?: string | undefined; stafferId?: string | undefined };
  /** Each location's zone, for the times of open offers. */
  zoneOf: (locationId: string) => string;
  csrf: string;
  notice?: string | undefined;
  error?: string | undefined;
  text: PanelText;
}

/** The waitlist: who waits for what, in line order, with "Offer a time" and "Remove" per person. */
export function WaitlistPage(props: WaitlistPageProps) {
  const { t, locale } = props.text;
  const serviceName = new Map(props.services.map((s) => [s.id, s.name]));
  const stafferName = new Map(props.staffers.map((s) => [s.id, s.name]));
  const query = new URLSearchParams();
  if (props.filter.serviceId) query.set('service', props.filter.serviceId);
  if (props.filter.stafferId) query.set('staffer', props.filter.stafferId);
  const back = query.size > 0 ? `?${query}` : '';
  return (
    <>
      <h1>{t('waitlist.title')}</h1>
      <p class="lead">{t('waitlist.lead')}</p>
      <Notice text={props.notice} />
      {props.error && (
        <p class="notice error" role="alert">
          {props.error}
        </p>
      )}
      <form method="get" action={WAITLIST} class="filters" aria-label={t('waitlist.title')}>
        <div class="field">
          <label for="service">{t('waitlist.service')}</label>
          <select id="service" name="service">
            <option value="">{t('waitlist.allServices')}</option>
            {props.services.map((s) => (
              <option value={s.id} selected={s.id === props.filter.serviceId}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="staffer">{t('waitlist.staffer')}</label>
          <select id="staffer" name="staffer">
            <option value="">{t('waitlist.anyStaffer')}</option>
            {props.staffers.map((s) => (
              <option value={s.id} selected={s.id === props.filter.stafferId}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <button type="submit">{t('waitlist.show')}</button>
        </div>
      </form>
      <p class="muted" role="status">
        {t('waitlist.count', { n: props.entries.length })}
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label={t('waitlist.title')}>
          <thead>
            <tr>
              <th scope="col">{t('waitlist.position')}</th>
              <th scope="col">{t('waitlist.customer')}</th>
              <th scope="col">{t('waitlist.wants')}</th>
              <th scope="col">{t('waitlist.state')}</th>
              <th scope="col">{t('waitlist.offerTime')}</th>
            </tr>
          </thead>
          <tbody>
            {props.entries.length === 0 && (
              <tr>
                <td colSpan={5}>{t('waitlist.empty')}</td>
              </tr>
            )}
            {props.entries.map((entry, index) => {
              const offer = props.offerOf.get(entry.id);
              const zone = props.zoneOf(entry.location_id);
              const name = `${entry.customer_first_name} ${entry.customer_last_name}`.trim();
              return (
                <tr data-entry={entry.id}>
                  <td data-label={t('waitlist.position')}>{index + 1}</td>
                  <td data-label={t('waitlist.customer')} class="wrap">
                    <strong>{name || entry.customer_phone}</strong>
                    <div class="muted">
                      {[entry.customer_phone, entry.customer_email].filter(Boolean).join(', ')}
                    </div>
                    <div class="muted">
                      {t('waitlist.joined')}: {formatDate(entry.joined_at.toISOString().slice(0, 10), locale)}
                    </div>
                  </td>
                  <td data-label={t('waitlist.wants')} class="wrap">
                    <div>
                      {serviceName.get(entry.service_id) ?? ''}
                      {entry.staffer_id ? ` · ${stafferName.get(entry.staffer_id) ?? ''}` : ''}
                    </div>
                    {entry.any_time ? (
                      <div class="muted">{t('waitlist.anyTime')}</div>
                    ) : (
                      entry.windows.map((w) => (
                        <div class="muted">
                          {formatDate(w.date, locale)} {w.from}–{w.to}
                        </div>
                      ))
                    )}
                  </td>
                  <td data-label={t('waitlist.state')} class="wrap">
                    {offer ? t('waitlist.state.offered') : t('waitlist.state.waiting')}
                    {offer && (
                      <div class="muted">
                        {t('waitlist.openOffer', {
                          when: formatDateTime(offer.starts_at.getTime(), zone, locale),
                          until: formatDateTime(offer.held_until.getTime(), zone, locale),
                        })}
                      </div>
                    )}
                  </td>
                  <td data-label={t('waitlist.offerTime')}>
                    <PostForm
                      action={`${WAITLIST}/${entry.id}/offer${back}`}
                      csrf={props.csrf}
                      class="inline waitlist-offer"
                      label={`${t('waitlist.offerTime')}: ${name || entry.customer_phone}`}
                    >
                      <label for={`date-${entry.id}`}>{t('waitlist.date')}</label>
                      <input id={`date-${entry.id}`} name="date" type="date" required />
                      <label for={`time-${entry.id}`}>{t('waitlist.time')}</label>
                      <input id={`time-${entry.id}`} name="time" type="time" step="300" required />
                      <button type="submit">{t('waitlist.offerButton')}</button>
                    </PostForm>
                    <PostForm
                      action={`${WAITLIST}/${entry.id}/remove${back}`}
                      csrf={props.csrf}
                      class="inline"
                      label={`${t('waitlist.remove')}: ${name || entry.customer_phone}`}
                    >
                      <button type="submit" class="secondary">
                        {t('waitlist.remove')}
                      </button>
                    </PostForm>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
