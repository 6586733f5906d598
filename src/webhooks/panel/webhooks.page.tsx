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
import { PANEL_PREFIX } from '../../panel-kit/layout.js';
import type { AttemptRow, DeliveryRow } from '../webhooks.presenter.js';
import type { WebhookRow } from '../webhooks.repository.js';

export const HOOKS = `${PANEL_PREFIX}/settings/developers/webhooks`;

const when = (date: Date | null) =>
  date === null ? '—' : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

const EVENT_HELP: Record<(typeof EVENT_TYPES)[number], string> = {
  'booking-created': 'a booking is made',
  'booking-updated': 'its status, staffer or services change',
  'booking-rescheduled': 'it moves to another time',
  'booking-succeeded': 'it is completed',
  'booking-canceled': 'it is canceled',
  'payment-succeeded': 'a deposit, prepayment or fee is taken',
  'payment-refunded': 'money is refunded to the customer',
  'payment-failed': 'a charge or fee fails',
};

/** Stripe's words for a delivery's state, from ours and its attempts. */
export function deliveryStatus(row: DeliveryRow): 'delivered' | 'pending' | 'failing' | 'given up' {
  if (row.state === 'succeeded') return 'delivered';
  if (row.state === 'failed') return 'given up';
  // Waiting for a retry after a failed attempt; a first send (or one in flight) is pending.
  return row.state === 'pending' && row.attempt_count > 0 ? 'failing' : 'pending';
}

function WebhookStatus({ webhook }: { webhook: WebhookRow }) {
  if (!webhook.enabled) {
    const why =
      webhook.disabled_reason === 'gone'
        ? ' (receiver answered 410)'
        : webhook.disabled_reason === 'failing'
          ? ' (failing for 3 days)'
          : '';
    return <span class="badge disabled">Disabled{why}</span>;
  }
  if (webhook.failing_since)
    return <span class="badge failing">Failing since {when(webhook.failing_since)}</span>;
  return <span class="badge enabled">Enabled</span>;
}

function Crumbs({ last }: { last?: boolean }) {
  return (
    <p class="crumbs">
      Settings / Developers / {last ? <a href={HOOKS}>Webhooks</a> : 'Webhooks'} {last ? '/' : ''}
    </p>
  );
}

export function WebhooksPage(props: { webhooks: WebhookRow[] }) {
  return (
    <>
      <Crumbs />
      <h1>Webhooks</h1>
      <p class="lead">Kairos posts booking events to these endpoints, signed per Standard Webhooks.</p>
      <p>
        <a class="button" href={`${HOOKS}/new`}>
          Add an endpoint
        </a>
      </p>
      <div class="table-wrap">
        <table class="stack" aria-label="Webhook endpoints">
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Events</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {props.webhooks.length === 0 && (
              <tr>
                <td colSpan={3} class="muted">
                  No endpoints yet.
                </td>
              </tr>
            )}
            {props.webhooks.map((webhook) => (
              <tr>
                <td data-label="Endpoint">
                  <a href={`${HOOKS}/${webhook.id}`}>{webhook.url}</a>
                  {webhook.description && <div class="muted">{webhook.description}</div>}
                </td>
                <td data-label="Events">
                  {webhook.events.includes('*') ? 'All events' : webhook.events.join(', ')}
                </td>
                <td data-label="Status">
                  <WebhookStatus webhook={webhook} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function NewWebhookPage({ form, csrf }: { form: FormState; csrf: string }) {
  const checked = new Set(Array.isArray(form.values.events) ? form.values.events : []);
  const eventsInvalid = Object.keys(form.errors).some((key) => key === 'events' || key.startsWith('events.'));
  return (
    <>
      <Crumbs last />
      <h1>Add an endpoint</h1>
      <div class="card">
        <ErrorSummary form={form} />
        <PostForm action={HOOKS} csrf={csrf} label="Add a webhook endpoint">
          <TextField
            form={form}
            name="url"
            label="Endpoint URL"
            type="url"
            hint="An https:// URL on the public internet that answers 2xx."
            autocomplete="off"
          />
          <TextField form={form} name="description" label="Description (optional)" autocomplete="off" />
          <fieldset
            class={`field checks${eventsInvalid ? ' has-error' : ''}`}
            id={fieldId('events')}
            aria-describedby={eventsInvalid ? `${fieldId('events')}-error` : undefined}
          >
            <legend>Events to send</legend>
            <label>
              <input type="checkbox" name="events" value="*" checked={checked.has('*')} /> All events,
              including ones added later
            </label>
            {EVENT_TYPES.map((type) => (
              <label>
                <input type="checkbox" name="events" value={type} checked={checked.has(type)} />{' '}
                <code>{type}</code> <span class="muted">— {EVENT_HELP[type]}</span>
              </label>
            ))}
            <FieldError form={form} name="events" />
          </fieldset>
          <button type="submit">Add endpoint</button>
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
}

export function WebhookDetailPage(props: WebhookDetailProps) {
  const { webhook } = props;
  const base = `${HOOKS}/${webhook.id}`;
  return (
    <>
      <Crumbs last />
      <h1>{webhook.url}</h1>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      {props.problem && (
        <div class="errors-summary" role="alert">
          <h2>Could not be done</h2>
          <p>{props.problem}</p>
        </div>
      )}
      {props.secret && (
        <div class="card" role="status">
          <h2>Signing secret</h2>
          <p>
            Your receiver verifies each event with it. It is shown <strong>only this once</strong>; rotate it
            to get a new one.
          </p>
          <SecretValue value={props.secret} label="Signing secret" />
        </div>
      )}
      <div class="card">
        <dl class="meta">
          <dt>Status</dt>
          <dd>
            <WebhookStatus webhook={webhook} />
          </dd>
          <dt>Events</dt>
          <dd>{webhook.events.includes('*') ? 'All events' : webhook.events.join(', ')}</dd>
          <dt>Description</dt>
          <dd>{webhook.description || <span class="muted">—</span>}</dd>
          <dt>Created</dt>
          <dd>{when(webhook.created_at)}</dd>
          <dt>Signing secret</dt>
          <dd>
            whsec_…{' '}
            <span class="muted">
              (hidden
              {webhook.previous_secret_expires_at && webhook.previous_secret
                ? `; the previous one signs too until ${when(webhook.previous_secret_expires_at)}`
                : ''}
              )
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
              {webhook.enabled ? 'Disable' : 'Enable'}
            </button>
          </PostForm>
          <PostForm action={`${base}/test`} csrf={props.csrf} class="inline">
            <button type="submit" class="secondary">
              Send a test event
            </button>
          </PostForm>
          <PostForm action={`${base}/rotate`} csrf={props.csrf} class="inline">
            <button type="submit" class="secondary">
              Rotate the secret
            </button>
          </PostForm>
        </div>
      </div>
      <h2 id="deliveries">Deliveries</h2>
      <p class="muted">
        {props.total === 0
          ? 'Nothing sent yet.'
          : `The latest ${props.deliveries.length} of ${props.total}, newest first.`}{' '}
        <a href={base}>Refresh</a>
      </p>
      {props.deliveries.map((delivery) => (
        <Delivery
          delivery={delivery}
          attempts={props.attempts.get(delivery.id) ?? []}
          csrf={props.csrf}
          action={`${base}/deliveries/${delivery.id}/resend`}
        />
      ))}
    </>
  );
}

function Delivery(props: { delivery: DeliveryRow; attempts: AttemptRow[]; csrf: string; action: string }) {
  const { delivery } = props;
  const status = deliveryStatus(delivery);
  return (
    <div class="card delivery" data-delivery={delivery.id}>
      <div class="row">
        <code>{delivery.event_type}</code>
        <span class={`badge ${status.replace(' ', '-')}`}>{status}</span>
        <span class="muted">{when(delivery.created_at)}</span>
        <span class="muted">{delivery.message_id}</span>
        <PostForm action={props.action} csrf={props.csrf} class="inline">
          <button type="submit" class="secondary">
            Resend
            <span class="skip-label">
              {' '}
              {delivery.event_type} of {when(delivery.created_at)}
            </span>
          </button>
        </PostForm>
      </div>
      <details class="attempts">
        <summary>
          {props.attempts.length} attempt{props.attempts.length === 1 ? '' : 's'}
          {delivery.next_attempt_at && delivery.state === 'pending'
            ? ` · next at ${when(delivery.next_attempt_at)}`
            : ''}
        </summary>
        {props.attempts.length > 0 && (
          <div class="table-wrap">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Time</th>
                  <th scope="col">Response</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Excerpt</th>
                </tr>
              </thead>
              <tbody>
                {props.attempts.map((attempt) => (
                  <tr>
                    <td data-label="Attempt">{attempt.attempt}</td>
                    <td data-label="Time">{when(attempt.started_at)}</td>
                    <td data-label="Response">{attempt.status_code ?? attempt.error ?? '—'}</td>
                    <td data-label="Duration">{attempt.duration_ms} ms</td>
                    <td data-label="Excerpt">
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
