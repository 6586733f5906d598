import { EVENT_TYPES } from '../../outbox/event-types.js';
import {
  ErrorSummary,
  FieldError,
  type FormState,
  fieldId,
  PostForm,
  SecretValue,
  TextField,
} from '../../panel-kit/forms.js';
import { type PanelKey, type PanelText, withElements } from '../../panel-kit/i18n.js';
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { AttemptRow, DeliveryRow } from '../webhooks.presenter.js';
import type { WebhookRow } from '../webhooks.repository.js';

export const HOOKS = `${PANEL_PREFIX}/settings/developers/webhooks`;

const when = (date: Date | null) =>
  date === null ? '—' : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

const EVENT_HELP = Object.fromEntries(
  EVENT_TYPES.map((type) => [type, `hooks.event.${type}` as PanelKey]),
) as Record<(typeof EVENT_TYPES)[number], PanelKey>;

/** Stripe's words for a delivery's state, from ours and its attempts. */
export function deliveryStatus(row: DeliveryRow): 'delivered' | 'pending' | 'failing' | 'given up' {
  if (row.state === 'succeeded') return 'delivered';
  if (row.state === 'failed') return 'given up';
  // Waiting for a retry after a failed attempt; a first send (or one in flight) is pending.
  return row.state === 'pending' && row.attempt_count > 0 ? 'failing' : 'pending';
}

function WebhookStatus({ webhook, t }: { webhook: WebhookRow; t: PanelText['t'] }) {
  if (!webhook.enabled) {
    const label =
      webhook.disabled_reason === 'gone'
        ? t('hooks.disabledGone')
        : webhook.disabled_reason === 'failing'
          ? t('hooks.disabledFailing')
          : t('hooks.disabled');
    return <span class="badge disabled">{label}</span>;
  }
  if (webhook.failing_since)
    return (
      <span class="badge failing">{t('hooks.failingSince', { when: when(webhook.failing_since) })}</span>
    );
  return <span class="badge enabled">{t('hooks.enabled')}</span>;
}

function Crumbs({ last, t }: { last?: boolean; t: PanelText['t'] }) {
  return (
    <p class="crumbs">
      {t('nav.settings')} / {t('dev.crumb')} /{' '}
      {last ? <a href={HOOKS}>{t('nav.webhooks')}</a> : t('nav.webhooks')} {last ? '/' : ''}
    </p>
  );
}

export function WebhooksPage(props: { webhooks: WebhookRow[]; text: PanelText }) {
  const { t } = props.text;
  return (
    <>
      <Crumbs t={t} />
      <h1>{t('nav.webhooks')}</h1>
      <p class="lead">{t('hooks.lead')}</p>
      <p>
        <a class="button" href={`${HOOKS}/new`}>
          {t('hooks.add')}
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label={t('hooks.endpoints')}>
          <thead>
            <tr>
              <th scope="col">{t('hooks.endpoint')}</th>
              <th scope="col">{t('hooks.events')}</th>
              <th scope="col">{t('hooks.status')}</th>
            </tr>
          </thead>
          <tbody>
            {props.webhooks.length === 0 && (
              <tr>
                <td colSpan={3} class="muted">
                  {t('hooks.none')}
                </td>
              </tr>
            )}
            {props.webhooks.map((webhook) => (
              <tr>
                <td data-label={t('hooks.endpoint')}>
                  <a href={`${HOOKS}/${webhook.id}`}>{webhook.url}</a>
                  {webhook.description && <div class="muted">{webhook.description}</div>}
                </td>
                <td data-label={t('hooks.events')}>
                  {webhook.events.includes('*') ? t('hooks.allEvents') : webhook.events.join(', ')}
                </td>
                <td data-label={t('hooks.status')}>
                  <WebhookStatus webhook={webhook} t={t} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function NewWebhookPage({ form, csrf, text }: { form: FormState; csrf: string; text: PanelText }) {
  const { t } = text;
  const checked = new Set(Array.isArray(form.values.events) ? form.values.events : []);
  const eventsInvalid = Object.keys(form.errors).some((key) => key === 'events' || key.startsWith('events.'));
  return (
    <>
      <Crumbs last t={t} />
      <h1>{t('hooks.add')}</h1>
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={HOOKS} csrf={csrf} label={t('hooks.addLabel')}>
          <TextField
            form={form}
            name="url"
            label={t('hooks.url')}
            type="url"
            hint={t('hooks.urlHint')}
            autocomplete="off"
          />
          <TextField form={form} name="description" label={t('hooks.description')} autocomplete="off" />
          <fieldset
            class={`field checks${eventsInvalid ? ' has-error' : ''}`}
            id={fieldId('events')}
            aria-describedby={eventsInvalid ? `${fieldId('events')}-error` : undefined}
          >
            <legend>{t('hooks.eventsToSend')}</legend>
            <label>
              <input type="checkbox" name="events" value="*" checked={checked.has('*')} />{' '}
              {t('hooks.allIncludingLater')}
            </label>
            {EVENT_TYPES.map((type) => (
              <label>
                <input type="checkbox" name="events" value={type} checked={checked.has(type)} />{' '}
                <code>{type}</code> <span class="muted">— {t(EVENT_HELP[type])}</span>
              </label>
            ))}
            <FieldError form={form} name="events" />
          </fieldset>
          <button type="submit">{t('hooks.addButton')}</button>
        </PostForm>
      </div>
    </>
  );
}

export interface WebhookDetailProps {
  csrf: string;
  webhook: WebhookRow;
  deliveries: DeliveryRow[];
  attempts: Map<string, AttemptRow[]>;
  total: number;
  /** Right after creation or rotation: the signing secret, shown this once. */
  secret?: string;
  notice?: string;
  problem?: string;
  text: PanelText;
}

export function WebhookDetailPage(props: WebhookDetailProps) {
  const { webhook } = props;
  const { t } = props.text;
  const base = `${HOOKS}/${webhook.id}`;
  return (
    <>
      <Crumbs last t={t} />
      <h1>{webhook.url}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.problem && (
        <div class="errors-summary" role="alert">
          <h2>{t('hooks.problem')}</h2>
          <p>{props.problem}</p>
        </div>
      )}
      {props.secret && (
        <div class="card" role="status">
          <h2>{t('hooks.signingSecret')}</h2>
          <p>
            {withElements((values) => t('hooks.secretOnce', values), {
              once: <strong>{t('keys.onlyOnce')}</strong>,
            })}
          </p>
          <SecretValue value={props.secret} label={t('hooks.signingSecret')} />
        </div>
      )}
      <div class="card">
        <dl class="meta">
          <dt>{t('hooks.status')}</dt>
          <dd>
            <WebhookStatus webhook={webhook} t={t} />
          </dd>
          <dt>{t('hooks.events')}</dt>
          <dd>{webhook.events.includes('*') ? t('hooks.allEvents') : webhook.events.join(', ')}</dd>
          <dt>{t('hooks.description2')}</dt>
          <dd>{webhook.description || <span class="muted">—</span>}</dd>
          <dt>{t('hooks.created')}</dt>
          <dd>{when(webhook.created_at)}</dd>
          <dt>{t('hooks.signingSecret')}</dt>
          <dd>
            whsec_…{' '}
            <span class="muted">
              {webhook.previous_secret_expires_at && webhook.previous_secret
                ? t('hooks.hiddenPrevious', { when: when(webhook.previous_secret_expires_at) })
                : t('hooks.hidden')}
            </span>
          </dd>
        </dl>
        <div class="row">
          <PostForm
            action={`${base}/${webhook.enabled ? 'disable' : 'enable'}`}
            csrf={props.csrf}
            class="inline"
          >
            <button type="submit" class="secondary">
              {webhook.enabled ? t('hooks.disable') : t('hooks.enable')}
            </button>
          </PostForm>
          <PostForm action={`${base}/test`} csrf={props.csrf} class="inline">
            <button type="submit" class="secondary">
              {t('hooks.sendTest')}
            </button>
          </PostForm>
          <PostForm action={`${base}/rotate`} csrf={props.csrf} class="inline">
            <button type="submit" class="secondary">
              {t('hooks.rotate')}
            </button>
          </PostForm>
        </div>
      </div>
      <h2 id="deliveries">{t('hooks.deliveries')}</h2>
      <p class="muted">
        {props.total === 0
          ? t('hooks.nothingSent')
          : t('hooks.latest', { shown: props.deliveries.length, total: props.total })}{' '}
        <a href={base}>{t('hooks.refresh')}</a>
      </p>
      {props.deliveries.map((delivery) => (
        <Delivery
          delivery={delivery}
          attempts={props.attempts.get(delivery.id) ?? []}
          csrf={props.csrf}
          action={`${base}/deliveries/${delivery.id}/resend`}
          t={t}
        />
      ))}
    </>
  );
}

function Delivery(props: {
  delivery: DeliveryRow;
  attempts: AttemptRow[];
  csrf: string;
  action: string;
  t: PanelText['t'];
}) {
  const { delivery, t } = props;
  const status = deliveryStatus(delivery);
  return (
    <div class="card delivery" data-delivery={delivery.id}>
      <div class="row">
        <code>{delivery.event_type}</code>
        <span class={`badge ${status.replace(' ', '-')}`}>{t(`hooks.status.${status}`)}</span>
        <span class="muted">{when(delivery.created_at)}</span>
        <span class="muted">{delivery.message_id}</span>
        <PostForm action={props.action} csrf={props.csrf} class="inline">
          <button type="submit" class="secondary">
            {t('hooks.resend')}
            <span class="skip-label">
              {t('hooks.resendWhat', { event: delivery.event_type, when: when(delivery.created_at) })}
            </span>
          </button>
        </PostForm>
      </div>
      <details class="attempts">
        <summary>
          {t('hooks.attempts', { n: props.attempts.length })}
          {delivery.next_attempt_at && delivery.state === 'pending'
            ? t('hooks.nextAt', { when: when(delivery.next_attempt_at) })
            : ''}
        </summary>
        {props.attempts.length > 0 && (
          <div class="table-wrap">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">{t('hooks.time')}</th>
                  <th scope="col">{t('hooks.response')}</th>
                  <th scope="col">{t('hooks.duration')}</th>
                  <th scope="col">{t('hooks.excerpt')}</th>
                </tr>
              </thead>
              <tbody>
                {props.attempts.map((attempt) => (
                  <tr>
                    <td data-label={t('hooks.attempt')}>{attempt.attempt}</td>
                    <td data-label={t('hooks.time')}>{when(attempt.started_at)}</td>
                    <td data-label={t('hooks.response')}>{attempt.status_code ?? attempt.error ?? '—'}</td>
                    <td data-label={t('hooks.duration')}>{attempt.duration_ms} ms</td>
                    <td data-label={t('hooks.excerpt')}>
                      {attempt.response_excerpt ? (
                        <pre class="excerpt">{attempt.response_excerpt}</pre>
                      ) : (
                        <span class="muted">{attempt.error ?? '—'}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </details>
    </div>
  );
}
