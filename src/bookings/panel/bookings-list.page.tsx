import { ErrorSummary, FieldError, type FormState, fieldId, TextField } from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ListPager } from '../../panel-kit/list-pager.js';
import type { BookingView } from '../bookings.repository.js';
import { bookingWhen, customerName, stafferName } from './booking-when.js';
import { STATUS_TYPES } from './bookings-list.filters.js';

export const BOOKINGS = `${PANEL_PREFIX}/bookings`;

interface Option {
  value: string;
  label: string;
}

/** A select whose options may sit in groups (the status filter: kinds, then the workspace's statuses). */
function FilterSelect(props: {
  form: FormState;
  name: string;
  label: string;
  any: string;
  groups: { label?: string; options: Option[] }[];
}) {
  const id = fieldId(props.name);
  const invalid = (props.form.errors[props.name] ?? []).length > 0;
  const value = props.form.values[props.name];
  const option = (o: Option) => (
    <option value={o.value} selected={o.value === value}>
      {o.label}
    </option>
  );
  return (
    <div class={`field${invalid ? ' has-error' : ''}`}>
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
      >
        <option value="">{props.any}</option>
        {props.groups.map((group) =>
          group.label ? (
            <optgroup label={group.label}>{group.options.map(option)}</optgroup>
          ) : (
            group.options.map(option)
          ),
        )}
      </select>
      <FieldError form={props.form} name={props.name} />
    </div>
  );
}

export function BookingsListPage(props: {
  form: FormState;
  statuses: { id: string; name: string }[];
  staffers: { id: string; name: string }[];
  locations: { id: string; name: string }[];
  locationNames: Map<string, string>;
  bookings: BookingView[];
  page: number;
  perPage: number;
  total: number;
  /** The filters as a query string (without page), for the pager's links. */
  query: string;
  from: string;
  to: string;
  text: PanelText;
}) {
  const { form } = props;
  const { t } = props.text;
  const failed = Object.keys(form.errors).length > 0;
  return (
    <>
      <p class="crumbs">{t('nav.bookings')} /</p>
      <h1>{t('list.title')}</h1>
      <p class="lead">{t('list.lead')}</p>
      <div class="card">
        <ErrorSummary form={form} />
        <form method="get" action={BOOKINGS} class="filters" aria-label={t('list.filter')} novalidate>
          <FilterSelect
            form={form}
            name="status"
            label={t('booking.status')}
            any={t('list.anyStatus')}
            groups={[
              {
                label: t('list.kind'),
                options: STATUS_TYPES.map((entry) => ({
                  value: `type:${entry.type}`,
                  label: t(`list.type.${entry.type}`),
                })),
              },
              {
                label: t('booking.status'),
                options: props.statuses.map((status) => ({
                  value: `status:${status.id}`,
                  label: status.name,
                })),
              },
            ]}
          />
          <FilterSelect
            form={form}
            name="staffer"
            label={t('booking.staffer')}
            any={t('list.anyStaffer')}
            groups={[{ options: props.staffers.map((s) => ({ value: s.id, label: s.name })) }]}
          />
          <FilterSelect
            form={form}
            name="location"
            label={t('list.location')}
            any={t('list.anyLocation')}
            groups={[{ options: props.locations.map((l) => ({ value: l.id, label: l.name })) }]}
          />
          <TextField
            form={form}
            name="customer"
            label={t('booking.customer')}
            type="search"
            hint={t('list.customerHint')}
            autocomplete="off"
          />
          <TextField form={form} name="from" label={t('list.from')} type="date" />
          <TextField form={form} name="to" label={t('list.to')} type="date" />
          <div class="field row">
            <button type="submit">{t('list.show')}</button>
            <a href={BOOKINGS}>{t('list.reset')}</a>
          </div>
        </form>
      </div>
      {!failed && (
        <p class="muted" role="status">
          {t('list.count', { n: props.total, from: props.from, to: props.to })}
        </p>
      )}
      <div class="table-wrap">
        <table class="stack" aria-label={t('nav.bookings')}>
          <thead>
            <tr>
              <th scope="col">{t('booking.when')}</th>
              <th scope="col">{t('booking.customer')}</th>
              <th scope="col">{t('booking.services')}</th>
              <th scope="col">{t('booking.staffer')}</th>
              <th scope="col">{t('list.location')}</th>
              <th scope="col">{t('booking.status')}</th>
            </tr>
          </thead>
          <tbody>
            {props.bookings.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  {failed ? t('list.correctFilters') : t('list.noMatch')}
                </td>
              </tr>
            )}
            {props.bookings.map((booking) => {
              const when = bookingWhen(booking, props.text.lang === 'en' ? undefined : props.text.locale);
              return (
                <tr>
                  <td data-label={t('booking.when')}>
                    <a href={`${BOOKINGS}/${booking.id}`}>{when.text}</a>{' '}
                    <span class="muted">{when.zone}</span>
                    {booking.series_id && <div class="muted">{t('list.series')}</div>}
                  </td>
                  <td data-label={t('booking.customer')}>
                    <a href={`${PANEL_PREFIX}/customers/${booking.customer_id}`}>{customerName(booking)}</a>
                    <div class="muted">{booking.customer_phone}</div>
                  </td>
                  <td data-label={t('booking.services')}>
                    {booking.lines.map((line) => line.name).join(', ')}
                  </td>
                  <td data-label={t('booking.staffer')}>{stafferName(booking) || '—'}</td>
                  <td data-label={t('list.location')}>
                    {props.locationNames.get(booking.location_id) ?? '—'}
                  </td>
                  <td data-label={t('booking.status')}>{booking.status_name}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ListPager
        page={props.page}
        perPage={props.perPage}
        total={props.total}
        href={(page) => `${BOOKINGS}?${props.query}${props.query ? '&' : ''}page=${page}`}
        label={t('list.pages')}
      />
    </>
  );
}
