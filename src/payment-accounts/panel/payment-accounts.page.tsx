import { ErrorSummary, type FormState, PostForm, SelectField, TextField } from '../../panel-kit/forms.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import type { PaymentAccountType } from '../../platform/db/schema.js';
import type { PaymentAccountRow } from '../payment-accounts.repository.js';
import { PAYMENT_ACCOUNT_TYPES } from '../payment-accounts.schemas.js';

export const ACCOUNTS = `${PANEL_PREFIX}/setup/payment-accounts`;

export const TYPE_LABELS: Record<PaymentAccountType, string> = {
  cash: 'Cash',
  card: 'Card',
  bank_transfer: 'Bank transfer',
  online: 'Online',
  other: 'Other',
};

export interface LocationAccounts {
  location: { id: string; name: string };
  accounts: PaymentAccountRow[];
}

export function PaymentAccountsPage(props: { locations: LocationAccounts[]; notice?: string }) {
  return (
    <>
      <p class="crumbs">Setup /</p>
      <h1>Payment accounts</h1>
      <p class="lead">
        Where a location's money goes when a booking is completed: a cash desk, a card terminal, a bank
        account. Each location has its own.
      </p>
      <Notice text={props.notice} />
      {props.locations.length === 0 && (
        <p class="muted">
          Add a location first (<a href={`${PANEL_PREFIX}/setup/locations`}>Setup → Locations</a>): payment
          accounts belong to one.
        </p>
      )}
      {props.locations.map(({ location, accounts }) => {
        const base = `${ACCOUNTS}/${location.id}`;
        return (
          <section class="card" aria-labelledby={`loc-${location.id}`}>
            <h2 id={`loc-${location.id}`}>{location.name}</h2>
            <div class="table-wrap">
              <table class="stack" aria-label={`Payment accounts of ${location.name}`}>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                  </tr>
                </thead>
                <tbody>
                  {accounts.length === 0 && (
                    <tr>
                      <td colSpan={2} class="muted">
                        No payment accounts yet.
                      </td>
                    </tr>
                  )}
                  {accounts.map((account) => (
                    <tr>
                      <td data-label="Name">
                        {account.archived_at === null ? (
                          <a href={`${base}/${account.id}`}>{account.name}</a>
                        ) : (
                          <>
                            {account.name} <ArchivedBadge />
                          </>
                        )}
                      </td>
                      <td data-label="Type">{TYPE_LABELS[account.type]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              <a class="button secondary" href={`${base}/new`}>
                Add an account<span class="skip-label"> at {location.name}</span>
              </a>
            </p>
          </section>
        );
      })}
    </>
  );
}

export function PaymentAccountFormPage(props: {
  form: FormState;
  csrf: string;
  location: { id: string; name: string };
  account?: { id: string; name: string };
}) {
  const { form, location, account } = props;
  const base = `${ACCOUNTS}/${location.id}`;
  const action = account ? `${base}/${account.id}` : base;
  return (
    <>
      <p class="crumbs">
        Setup / <a href={ACCOUNTS}>Payment accounts</a> / {location.name} /
      </p>
      <h1>{account ? account.name : `Add a payment account at ${location.name}`}</h1>
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm
          action={action}
          csrf={props.csrf}
          label={account ? 'Edit the payment account' : 'Add a payment account'}
        >
          <TextField
            form={form}
            name="name"
            label="Name"
            hint="Such as Cash desk or Card terminal."
            autocomplete="off"
          />
          <SelectField
            form={form}
            name="type"
            label="Type"
            options={PAYMENT_ACCOUNT_TYPES.map((type) => ({ value: type, label: TYPE_LABELS[type] }))}
          />
          <button type="submit">{account ? 'Save the account' : 'Add the account'}</button>
        </PostForm>
      </div>
      {account && (
        <div class="card">
          <h2>Archive</h2>
          <p>
            An archived account is no longer offered when a booking is completed; the payments made to it keep
            it.
          </p>
          <PostForm action={`${base}/${account.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              Archive {account.name}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
