import { ErrorSummary, FieldError, type FormState, fieldId, TextField } from '../../panel-kit/forms.js';
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
}) {
  const { form } = props;
  const failed = Object.keys(form.errors).length > 0;
  return (
    <>
      <p class="crumbs">Bookings /</p>
      <h1>Bookings list</h1>
      <p class="lead">
        Times are each location's local time. Without dates the list shows today and the next 7 days.
      </p>
      <div class="card">
        <ErrorSummary form={form} />
        <form method="get" action={BOOKINGS} class="filters" aria-label="Filter bookings" novalidate>
          <FilterSelect
            form={form}
            name="status"
            label="Status"
            any="Any status"
            groups={[
              {
                label: 'Kind',
                options: STATUS_TYPES.map((entry) => ({ value: `type:${entry.type}`, label: entry.label })),
              },
              {
                label: 'Status',
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
            label="Staffer"
            any="Any staffer"
            groups={[{ options: props.staffers.map((s) => ({ value: s.id, label: s.name })) }]}
          />
          <FilterSelect
            form={form}
            name="location"
            label="Location"
            any="Any location"
            groups={[{ options: props.locations.map((l) => ({ value: l.id, label: l.name })) }]}
          />
          <TextField
            form={form}
            name="customer"
            label="Customer"
            type="search"
            hint="Name or phone"
            autocomplete="off"
          />
          <TextField form={form} name="from" label="From" type="date" />
          <TextField form={form} name="to" label="To" type="date" />
          <div class="field row">
            <button type="submit">Show bookings</button>
            <a href={BOOKINGS}>Reset</a>
          </div>
        </form>
      </div>
      {!failed && (
        <p class="muted" role="status">
          {props.total === 1 ? '1 booking' : `${props.total} bookings`} from {props.from} to {props.to}
        </p>
      )}
      <div class="table-wrap">
        <table class="stack" aria-label="Bookings">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Customer</th>
              <th scope="col">Services</th>
              <th scope="col">Staffer</th>
              <th scope="col">Location</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {props.bookings.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  {failed ? 'Correct the filters to see bookings.' : 'No bookings match.'}
                </td>
              </tr>
            )}
            {props.bookings.map((booking) => {
              const when = bookingWhen(booking);
              return (
                <tr>
                  <td data-label="When">
                    <a href={`${BOOKINGS}/${booking.id}`}>{when.text}</a>{' '}
                    <span class="muted">{when.zone}</span>
                  </td>
                  <td data-label="Customer">
                    <a href={`${PANEL_PREFIX}/customers/${booking.customer_id}`}>{customerName(booking)}</a>
                    <div class="muted">{booking.customer_phone}</div>
                  </td>
                  <td data-label="Services">{booking.lines.map((line) => line.name).join(', ')}</td>
                  <td data-label="Staffer">{stafferName(booking) || '—'}</td>
                  <td data-label="Location">{props.locationNames.get(booking.location_id) ?? '—'}</td>
                  <td data-label="Status">{booking.status_name}</td>
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
        label="Pages of bookings"
      />
    </>
  );
}
