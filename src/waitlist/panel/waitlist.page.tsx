import { ErrorSummary, type FormState, PostForm, SelectField, TextField } from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { Notice } from '../../panel-kit/setup-parts.js';
import { formatDate, formatDateTime } from '../../platform/time/format.js';
import type { EntryView, OfferRow } from '../waitlist.repository.js';
import { MAX_WINDOWS } from '../waitlist.rules.js';
import type { WaitlistSettingsView } from '../waitlist.service.js';

export const WAITLIST = `${PANEL_PREFIX}/waitlist`;

export interface WaitlistPageProps {
  entries: EntryView[];
  offerOf: Map<string, OfferRow>;
  services: { id: string; name: string }[];
  staffers: { id: string; name: string }[];
  locations: { id: string; name: string }[];
  /** The "Add to the waiting list" form: as typed, with its field errors after a refusal. */
  addForm: FormState;
  /** The settings, for members who may change them (else not shown). */
  settings?: WaitlistSettingsView | undefined;
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
      <AddForm {...props} back={back} />
      {props.settings && <SettingsForm {...props} settings={props.settings} back={back} />}
    </>
  );
}

/** Staff add a person to a line, as the API's POST /waitlist and the booking page's form do. */
function AddForm(props: WaitlistPageProps & { back: string }) {
  const { t } = props.text;
  const form = props.addForm;
  const anyTime = form.values.any_time === 'on';
  const windowsError = form.errors.windows;
  return (
    <section class="card waitlist-add" aria-labelledby="waitlist-add">
      <h2 id="waitlist-add">{t('waitlist.add.title')}</h2>
      <ErrorSummary form={form} />
      <PostForm action={`${WAITLIST}/add${props.back}`} csrf={props.csrf} label={t('waitlist.add.title')}>
        <div class="row fields">
          <SelectField
            form={form}
            name="location_uuid"
            label={t('waitlist.add.location')}
            options={props.locations.map((l) => ({ value: l.id, label: l.name }))}
          />
          <SelectField
            form={form}
            name="service_uuid"
            label={t('waitlist.service')}
            options={props.services.map((s) => ({ value: s.id, label: s.name }))}
          />
          <SelectField
            form={form}
            name="staffer_uuid"
            label={t('waitlist.staffer')}
            options={[
              { value: '', label: t('waitlist.anyStaffer') },
              ...props.staffers.map((s) => ({ value: s.id, label: s.name })),
            ]}
          />
        </div>
        <div class="row fields">
          <TextField
            form={form}
            name="customer_phone"
            type="tel"
            label={t('waitlist.add.phone')}
            hint={t('waitlist.add.phoneHint')}
            autocomplete="off"
            required
          />
          <TextField form={form} name="customer_first_name" label={t('waitlist.add.firstName')} />
          <TextField form={form} name="customer_last_name" label={t('waitlist.add.lastName')} />
          <TextField form={form} name="customer_email" type="email" label={t('waitlist.add.email')} />
        </div>
        <fieldset class={`waitlist-windows${windowsError ? ' has-error' : ''}`} id="f-windows">
          <legend>{t('waitlist.add.windows')}</legend>
          <div class="field">
            <label>
              <input type="checkbox" name="any_time" checked={anyTime} /> {t('waitlist.add.anyTime')}
            </label>
          </div>
          {windowsError && (
            <p class="error" id="f-windows-error">
              {windowsError.join(' ')}
            </p>
          )}
          {Array.from({ length: MAX_WINDOWS }, (_, i) => (
            <fieldset class="row fields waitlist-window">
              <legend class="visually-hidden">{t('waitlist.add.windowN', { n: i + 1 })}</legend>
              <TextField form={form} name={`windows.${i}.date`} type="date" label={t('waitlist.date')} />
              <TextField
                form={form}
                name={`windows.${i}.from`}
                type="time"
                step="300"
                label={t('waitlist.add.from')}
              />
              <TextField
                form={form}
                name={`windows.${i}.to`}
                type="time"
                step="300"
                label={t('waitlist.add.until')}
              />
            </fieldset>
          ))}
        </fieldset>
        <button type="submit">{t('waitlist.add.button')}</button>
      </PostForm>
    </section>
  );
}

/** Whether a freed group-class seat is booked from the line automatically (docs/waitlist.md). */
function SettingsForm(props: WaitlistPageProps & { settings: WaitlistSettingsView; back: string }) {
  const { t } = props.text;
  return (
    <section class="card" aria-labelledby="waitlist-settings">
      <h2 id="waitlist-settings">{t('waitlist.settings.title')}</h2>
      <PostForm
        action={`${WAITLIST}/settings${props.back}`}
        csrf={props.csrf}
        label={t('waitlist.settings.title')}
      >
        <div class="field">
          <label>
            <input
              type="checkbox"
              name="auto_fill_group_seats"
              checked={props.settings.auto_fill_group_seats}
              aria-describedby="auto-fill-hint"
            />{' '}
            {t('waitlist.settings.autoFill')}
          </label>
          <span class="hint" id="auto-fill-hint">
            {t('waitlist.settings.autoFillHint')}
          </span>
        </div>
        <button type="submit">{t('waitlist.settings.save')}</button>
      </PostForm>
    </section>
  );
}
