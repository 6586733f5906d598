import { ErrorSummary, type FormState, PostForm, SelectField, TextField } from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import { ArchivedBadge, Notice } from '../../panel-kit/setup-parts.js';
import type { PaymentAccountType } from '../../platform/db/schema.js';
import type { PaymentAccountRow } from '../payment-accounts.repository.js';
import { PAYMENT_ACCOUNT_TYPES } from '../payment-accounts.schemas.js';

export const ACCOUNTS = `${PANEL_PREFIX}/setup/payment-accounts`;

export const TYPE_LABELS: Record<PaymentAccountType, PanelKey> = {
  cash: 'accounts.type.cash',
  card: 'accounts.type.card',
  bank_transfer: 'accounts.type.bank_transfer',
  online: 'accounts.type.online',
  other: 'accounts.type.other',
};

export interface LocationAccounts {
  location: { id: string; name: string };
  accounts: PaymentAccountRow[];
}

export function PaymentAccountsPage(props: {
  locations: LocationAccounts[];
  notice?: string;
  text: PanelText;
}) {
  const { t } = props.text;
  return (
    <>
      <p class="crumbs">{t('nav.setup')} /</p>
      <h1>{t('nav.paymentAccounts')}</h1>
      <p class="lead">{t('accounts.lead')}</p>
      <Notice text={props.notice} />
      {props.locations.length === 0 && (
        <p class="muted">
          {withElements((values) => t('accounts.noLocation', values), {
            link: <a href={`${PANEL_PREFIX}/setup/locations`}>{t('accounts.setupLocations')}</a>,
          })}
        </p>
      )}
      {props.locations.map(({ location, accounts }) => {
        const base = `${ACCOUNTS}/${location.id}`;
        return (
          <section class="card" aria-labelledby={`loc-${location.id}`}>
            <h2 id={`loc-${location.id}`}>{location.name}</h2>
            <div class="table-wrap">
              <table class="stack" aria-label={t('accounts.of', { name: location.name })}>
                <thead>
                  <tr>
                    <th scope="col">{t('accounts.name')}</th>
                    <th scope="col">{t('accounts.type')}</th>
                  </tr>
                </thead>
                <tbody>
                  {accounts.length === 0 && (
                    <tr>
                      <td colSpan={2} class="muted">
                        {t('accounts.none')}
                      </td>
                    </tr>
                  )}
                  {accounts.map((account) => (
                    <tr>
                      <td data-label={t('accounts.name')}>
                        {account.archived_at === null ? (
                          <a href={`${base}/${account.id}`}>{account.name}</a>
                        ) : (
                          <>
                            {account.name} <ArchivedBadge />
                          </>
                        )}
                      </td>
                      <td data-label={t('accounts.type')}>{t(TYPE_LABELS[account.type])}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <p>
              <a class="button secondary" href={`${base}/new`}>
                {withElements((values) => t('accounts.addAt', values), {
                  at: <span class="skip-label">{t('accounts.atLocation', { name: location.name })}</span>,
                })}
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
  text: PanelText;
}) {
  const { form, location, account } = props;
  const { t } = props.text;
  const base = `${ACCOUNTS}/${location.id}`;
  const action = account ? `${base}/${account.id}` : base;
  return (
    <>
      <p class="crumbs">
        {t('nav.setup')} / <a href={ACCOUNTS}>{t('nav.paymentAccounts')}</a> / {location.name} /
      </p>
      <h1>{account ? account.name : t('accounts.addTitle', { name: location.name })}</h1>
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={action} csrf={props.csrf} label={account ? t('accounts.edit') : t('accounts.add')}>
          <TextField
            form={form}
            name="name"
            label={t('accounts.name')}
            hint={t('accounts.nameHint')}
            autocomplete="off"
          />
          <SelectField
            form={form}
            name="type"
            label={t('accounts.type')}
            options={PAYMENT_ACCOUNT_TYPES.map((type) => ({ value: type, label: t(TYPE_LABELS[type]) }))}
          />
          <button type="submit">{account ? t('accounts.save') : t('accounts.addThe')}</button>
        </PostForm>
      </div>
      {account && (
        <div class="card">
          <h2>{t('accounts.archive')}</h2>
          <p>{t('accounts.archiveText')}</p>
          <PostForm action={`${base}/${account.id}/archive`} csrf={props.csrf} class="inline">
            <button type="submit" class="danger">
              {t('accounts.archiveButton', { name: account.name })}
            </button>
          </PostForm>
        </div>
      )}
    </>
  );
}
