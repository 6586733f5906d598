import type { BookingView } from '../../bookings/bookings.repository.js';
import { bookingWhen, paidOn, stafferName } from '../../bookings/panel/booking-when.js';
import { emptyForm, PostForm, TextField } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ListPager } from '../../panel-kit/list-pager.js';
import type { CustomerRow } from '../customers.repository.js';

export const CUSTOMERS = `${PANEL_PREFIX}/customers`;

export const nameOf = (customer: CustomerRow) =>
  `${customer.first_name} ${customer.last_name}`.trim() || customer.phone || 'Erased customer';

const since = (date: Date) => date.toISOString().slice(0, 10);

export function CustomersPage(props: {
  q: string;
  customers: CustomerRow[];
  page: number;
  perPage: number;
  total: number;
}) {
  const query = props.q === '' ? '' : `q=${encodeURIComponent(props.q)}&`;
  return (
    <>
      <h1>Customers</h1>
      <p class="lead">Everyone who booked, found by name, email or phone number.</p>
      <form method="get" action={CUSTOMERS} class="filters" aria-label="Search customers">
        <TextField
          form={emptyForm({ q: props.q })}
          name="q"
          label="Name or phone"
          type="search"
          hint="Any notation of a number works, such as 0151 1234 5678."
          autocomplete="off"
        />
        <div class="field">
          <button type="submit">Search</button>
        </div>
      </form>
      <p class="muted" role="status">
        {props.total === 1 ? '1 customer' : `${props.total} customers`}
        {props.q === '' ? '' : ` match “${props.q}”`}
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label="Customers">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Phone</th>
              <th scope="col">Email</th>
              <th scope="col">Customer since</th>
            </tr>
          </thead>
          <tbody>
            {props.customers.length === 0 && (
              <tr>
                <td colSpan={4} class="muted">
                  {props.q === '' ? 'No customers yet.' : 'No customer matches.'}
                </td>
              </tr>
            )}
            {props.customers.map((customer) => (
              <tr>
                <td data-label="Name">
                  <a href={`${CUSTOMERS}/${customer.id}`}>{nameOf(customer)}</a>
                </td>
                <td data-label="Phone">{customer.phone}</td>
                <td data-label="Email">{customer.email || <span class="muted">—</span>}</td>
                <td data-label="Customer since">{since(customer.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ListPager
        page={props.page}
        perPage={props.perPage}
        total={props.total}
        href={(page) => `${CUSTOMERS}?${query}page=${page}`}
        label="Pages of customers"
      />
    </>
  );
}

export function CustomerPage(props: {
  customer: CustomerRow;
  bookings: BookingView[];
  page: number;
  perPage: number;
  total: number;
  paidTotal: string;
  money: (minor: number) => string;
  locationNames: Map<string, string>;
  /** Owners and admins: export and erase the customer's data. */
  manageData: boolean;
  notice?: string | undefined;
  /** Whether the number takes the workspace's text messages (STOP / START), in words. */
  textMessages: { label: string; value: string };
}) {
  const { customer } = props;
  const path = `${CUSTOMERS}/${customer.id}`;
  return (
    <>
      <p class="crumbs">
        <a href={CUSTOMERS}>Customers</a> /
      </p>
      <h1>{nameOf(customer)}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="card">
        <dl class="meta">
          <dt>Phone</dt>
          <dd>{customer.phone || '—'}</dd>
          <dt>Email</dt>
          <dd>{customer.email || '—'}</dd>
          <dt>{props.textMessages.label}</dt>
          <dd data-text-opt-out>{props.textMessages.value}</dd>
          <dt>Customer since</dt>
          <dd>{since(customer.created_at)}</dd>
          <dt>Bookings</dt>
          <dd>{props.total}</dd>
          <dt>Paid (completed bookings)</dt>
          <dd class="money" id="paid-total">
            {props.paidTotal}
          </dd>
          {customer.erased_at && (
            <>
              <dt>Personal data</dt>
              <dd>Erased on {since(customer.erased_at)}</dd>
            </>
          )}
        </dl>
        {props.manageData && (
          <p class="actions">
            <a href={`${path}/export.json`} download>
              Download their data (JSON)
            </a>
            {!customer.erased_at && (
              <a class="danger" href={`${path}/erase`}>
                Erase their data…
              </a>
            )}
          </p>
        )}
      </div>
      <h2>Bookings</h2>
      <div class="table-wrap">
        <table class="stack" aria-label={`Bookings of ${nameOf(customer)}, newest first`}>
          <thead>
            <tr>
              <th scope="col">When (location time)</th>
              <th scope="col">Services</th>
              <th scope="col">Location</th>
              <th scope="col">Staffer</th>
              <th scope="col">Status</th>
              <th scope="col">Paid</th>
            </tr>
          </thead>
          <tbody>
            {props.bookings.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  No bookings.
                </td>
              </tr>
            )}
            {props.bookings.map((booking) => {
              const when = bookingWhen(booking);
              const paid = paidOn(booking);
              return (
                <tr>
                  <td data-label="When">
                    <a href={`${PANEL_PREFIX}/bookings/${booking.id}`}>{when.text}</a>{' '}
                    <span class="muted">{when.zone}</span>
                  </td>
                  <td data-label="Services">{booking.lines.map((line) => line.name).join(', ')}</td>
                  <td data-label="Location">{props.locationNames.get(booking.location_id) ?? '—'}</td>
                  <td data-label="Staffer">{stafferName(booking) || '—'}</td>
                  <td data-label="Status">{booking.status_name}</td>
                  <td data-label="Paid" class="money">
                    {paid === 0 && booking.payments.length === 0 ? '—' : props.money(paid)}
                  </td>
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
        href={(page) => `${path}?page=${page}`}
        label="Pages of bookings"
      />
    </>
  );
}

/** The step before erasing: what goes, what stays, and that it cannot be undone. */
export function EraseCustomerPage(props: { customer: CustomerRow; csrf: string }) {
  const { customer } = props;
  const path = `${CUSTOMERS}/${customer.id}`;
  return (
    <>
      <p class="crumbs">
        <a href={CUSTOMERS}>Customers</a> / <a href={path}>{nameOf(customer)}</a> /
      </p>
      <h1>Erase {nameOf(customer)}’s data?</h1>
      <div class="card">
        <p>
          Their phone, name and email, their comments and notes, and what emails, webhooks and stored answers
          said about them are erased everywhere Kairos keeps them.
        </p>
        <p>
          Their bookings, orders and payments stay, without their name, so your totals do not change. This
          cannot be undone: download their data first if they asked for it.
        </p>
        <div class="row">
          <PostForm
            action={`${path}/erase`}
            csrf={props.csrf}
            class="inline"
            label="Erase the customer's data"
          >
            <button type="submit" class="danger">
              Erase their data
            </button>
          </PostForm>
          <a class="button secondary" href={path}>
            Keep it
          </a>
        </div>
      </div>
    </>
  );
}
