import { ErrorSummary, type FormState, PostForm, TextField } from '../../panel-kit/forms.js';
import type { PanelText } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { PaymentSettings } from '../payment-settings.rules.js';
import { paymentsPanelWords } from './payments.texts.js';

export const PAYMENTS_PAGE = `${PANEL_PREFIX}/settings/payments`;

export interface PaymentsPageProps {
  csrf: string;
  form: FormState;
  settings: PaymentSettings;
  connected: boolean;
  canSaveCredentials: boolean;
  webhookUrl: string;
  notice?: string;
  text: PanelText;
}

/** Settings → Payments: the provider's status, its keys (never shown), the webhook address. */
export function PaymentsPage(props: PaymentsPageProps) {
  const { form, settings } = props;
  const T = paymentsPanelWords(props.text.t);
  return (
    <>
      <p class="crumbs">
        {props.text.t('nav.settings')} / {T.title}
      </p>
      <h1>{T.title}</h1>
      <p class="lead">{T.lead}</p>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {!props.canSaveCredentials && (
        <p class="notice" role="note">
          {T.noSecretKey}
        </p>
      )}
      <div class="card">
        <h2>{T.status}</h2>
        {props.connected ? (
          <p>
            {T.connectedTo} <strong>{settings.accountName}</strong> (<code>{settings.accountId}</code>).{' '}
            {T.holdMinutes}: {settings.holdMinutes}.
          </p>
        ) : (
          <p>{T.notConnected}</p>
        )}
        {props.connected && (
          <PostForm action={`${PAYMENTS_PAGE}/disconnect`} csrf={props.csrf} label={T.disconnect}>
            <button type="submit" class="secondary">
              {T.disconnect}
            </button>
          </PostForm>
        )}
      </div>
      <div class="card">
        <h2>{props.connected ? T.reconnect : T.connect}</h2>
        <ErrorSummary form={form} />
        <PostForm action={PAYMENTS_PAGE} csrf={props.csrf} label={T.connect}>
          <TextField
            form={form}
            name="secret_key"
            label={T.secretKey}
            type="password"
            autocomplete="off"
            required
          />
          <TextField
            form={form}
            name="webhook_secret"
            label={T.webhookSecret}
            type="password"
            autocomplete="off"
            hint={T.keysHint}
            required
          />
          <TextField
            form={form}
            name="hold_minutes"
            label={T.holdMinutes}
            type="number"
            min="5"
            max="120"
            step="1"
            hint={T.holdHint}
          />
          <button type="submit">{props.connected ? T.reconnect : T.connect}</button>
        </PostForm>
        <h3>{T.webhook}</h3>
        <p class="secret">
          <code>{props.webhookUrl}</code>
        </p>
        <p class="hint">{T.webhookHint}</p>
      </div>
    </>
  );
}
