import type { BookingView } from '../../bookings/bookings.repository.js';
import { bookingWhen, paidOn, stafferName } from '../../bookings/panel/booking-when.js';
import { emptyForm, PostForm, TextField } from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
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
  text: PanelText;
}) {
  const { t } = props.text;
  const query = props.q === '' ? '' : `q=${encodeURIComponent(props.q)}&`;
  return (
    <>
      <h1>{t('customers.title')}</h1>
      <p class="lead">{t('customers.lead')}</p>
      <form method="get" action={CUSTOMERS} class="filters" aria-label={t('customers.search')}>
        <TextField
          form={emptyForm({ q: props.q })}
          name="q"
          label={t('customers.nameOrPhone')}
          type="search"
          hint={t('customers.hint')}
          autocomplete="off"
        />
        <div class="field">
          <button type="submit">{t('customers.searchButton')}</button>
        </div>
      </form>
      <p class="muted" role="status">
        {props.q === ''
          ? t('customers.count', { n: props.total })
          : t('customers.countMatching', { n: props.total, q: props.q })}
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label={t('customers.title')}>
          <thead>
            <tr>
              <th scope="col">{t('customers.name')}</th>
              <th scope="col">{t('customers.phone')}</th>
              <th scope="col">{t('customers.email')}</th>
              <th scope="col">{t('customers.since')}</th>
            </tr>
          </thead>
          <tbody>
            {props.customers.length === 0 && (
              <tr>
                <td colSpan={4} class="muted">
                  {props.q === '' ? t('customers.none') : t('customers.noMatch')}
                </td>
              </tr>
            )}
            {props.customers.map((customer) => (
              <tr>
                <td data-label={t('customers.name')}>
                  <a href={`${CUSTOMERS}/${customer.id}`}>{nameOf(customer)}</a>
                </td>
                <td data-label={t('customers.phone')}>{customer.phone}</td>
                <td data-label={t('customers.email')}>{customer.email || <span class="muted">—</span>}</td>
                <td data-label={t('customers.since')}>{since(customer.created_at)}</td>
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
        label={t('customers.pages')}
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
  text: PanelText;
}) {
  const { customer } = props;
  const { t } = props.text;
  const path = `${CUSTOMERS}/${customer.id}`;
  return (
    <>
      <p class="crumbs">
        <a href={CUSTOMERS}>{t('customers.title')}</a> /
      </p>
      <h1>{nameOf(customer)}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <div class="card">
        <dl class="meta">
          <dt>{t('customers.phone')}</dt>
          <dd>{customer.phone || '—'}</dd>
          <dt>{t('customers.email')}</dt>
          <dd>{customer.email || '—'}</dd>
          <dt>{props.textMessages.label}</dt>
          <dd data-text-opt-out>{props.textMessages.value}</dd>
          <dt>{t('customers.since')}</dt>
          <dd>{since(customer.created_at)}</dd>
          <dt>{t('customers.bookings')}</dt>
          <dd>{props.total}</dd>
          <dt>{t('customers.paidTotal')}</dt>
          <dd class="money" id="paid-total">
            {props.paidTotal}
          </dd>
          {customer.erased_at && (
            <>
              <dt>{t('customers.personalData')}</dt>
              <dd>{t('customers.erasedOn', { date: since(customer.erased_at) })}</dd>
            </>
          )}
        </dl>
        {props.manageData && (
          <div class="row">
            <a href={`${path}/export.json`} download>
              {t('customers.downloadData')}
            </a>
            {!customer.erased_at && (
              <a class="danger" href={`${path}/erase`}>
                {t('customers.eraseData')}
              </a>
            )}
          </div>
        )}
      </div>
      <h2>{t('customers.bookings')}</h2>
      <div class="table-wrap">
        <table class="stack" aria-label={t('customers.bookingsOf', { name: nameOf(customer) })}>
          <thead>
            <tr>
              <th scope="col">{t('customers.whenLocal')}</th>
              <th scope="col">{t('booking.services')}</th>
              <th scope="col">{t('list.location')}</th>
              <th scope="col">{t('booking.staffer')}</th>
              <th scope="col">{t('booking.status')}</th>
              <th scope="col">{t('customers.paid')}</th>
            </tr>
          </thead>
          <tbody>
            {props.bookings.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  {t('customers.noBookings')}
                </td>
              </tr>
            )}
            {props.bookings.map((booking) => {
              const when = bookingWhen(booking, props.text.lang === 'en' ? undefined : props.text.locale);
              const paid = paidOn(booking);
              return (
                <tr>
                  <td data-label={t('booking.when')}>
                    <a href={`${PANEL_PREFIX}/bookings/${booking.id}`}>{when.text}</a>{' '}
                    <span class="muted">{when.zone}</span>
                  </td>
                  <td data-label={t('booking.services')}>
                    {booking.lines.map((line) => line.name).join(', ')}
                  </td>
                  <td data-label={t('list.location')}>
                    {props.locationNames.get(booking.location_id) ?? '—'}
                  </td>
                  <td data-label={t('booking.staffer')}>{stafferName(booking) || '—'}</td>
                  <td data-label={t('booking.status')}>{booking.status_name}</td>
                  <td data-label={t('customers.paid')} class="money">
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
        label={t('list.pages')}
      />
    </>
  );
}

/** The step before erasing: what goes, what stays, and that it cannot be undone. */
export function EraseCustomerPage(props: { customer: CustomerRow; csrf: string; text: PanelText }) {
  const { customer } = props;
  const { t } = props.text;
  const path = `${CUSTOMERS}/${customer.id}`;
  return (
    <>
      <p class="crumbs">
        <a href={CUSTOMERS}>{t('customers.title')}</a> / <a href={path}>{nameOf(customer)}</a> /
      </p>
      <h1>{t('customers.eraseTitle', { name: nameOf(customer) })}</h1>
      <div class="card">
        <p>{t('customers.eraseWhatGoes')}</p>
        <p>{t('customers.eraseWhatStays')}</p>
        <div class="row">
          <PostForm
            action={`${path}/erase`}
            csrf={props.csrf}
            class="inline"
            label={t('customers.eraseButton')}
          >
            <button type="submit" class="danger">
              {t('customers.eraseButton')}
            </button>
          </PostForm>
          <a class="button secondary" href={path}>
            {t('customers.keep')}
          </a>
        </div>
      </div>
    </>
  );
}
