import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A fake Stripe on 127.0.0.1 (random port) with exactly the parts of the API Kairos uses, in
 * Stripe's documented shapes (https://docs.stripe.com/api): `GET /v1/account`, Checkout Sessions
 * (`POST /v1/checkout/sessions` in payment mode with payment_intent_data or in setup mode,
 * `GET /v1/checkout/sessions/{id}` with expand[], `POST /v1/checkout/sessions/{id}/expire`),
 * `POST /v1/payment_intents` (off_session + confirm, for fees) and `POST /v1/refunds`. Requests
 * are form-encoded with bracketed keys, authenticated with `Authorization: Bearer <secret key>`;
 * errors are `{ error: { type, code, message } }` with Stripe's status codes.
 *
 * `Idempotency-Key` is honoured as Stripe does: a repeated key with the same request answers the
 * first answer again (header `Idempotent-Replayed: true`) without doing anything; the same key
 * with other parameters is a 400 idempotency_error.
 *
 * The hosted page is `GET /checkout/{id}` (a plain HTML form, no script) whose button pays (or
 * keeps the card, in setup mode) and redirects to success_url. Events are sent to the registered
 * endpoints signed as Stripe signs them: `Stripe-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256(endpoint secret, t + "." + payload)>`, written out here rather than taken from the
 * stripe package, so a test fails if Kairos verifies them wrongly.
 */

type Obj = Record<string, unknown>;

export interface FakeStripeRequest {
  method: string;
  path: string;
  form: Obj;
  idempotencyKey: string | undefined;
  /** Set once the fake has done what the request asked (answered or not). */
  handled?: boolean;
}

/**
 * A fault for one request: an error status, no answer at all, the work done and the answer lost,
 * or the work done and the answer held until the fake stops (the caller dies waiting for it).
 */
export type Fault = { status: number; message?: string } | 'hang' | 'drop-after-commit' | 'hang-after-commit';

export interface Endpoint {
  url: string;
  secret: string;
}

export interface DeliveryRecord {
  eventId: string;
  type: string;
  status: number;
}

/** `a[b][0][c]=v` form pairs → nested objects (arrays for numeric keys), as Stripe reads them. */
export function parseStripeForm(body: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node: Obj = root;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        node[part] = value;
        return;
      }
      node[part] ??= {};
      node = node[part] as Obj;
    });
  }
  return arraysOf(root) as Obj;
}

function arraysOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Obj;
  const keys = Object.keys(obj);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)))
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => arraysOf(obj[k]));
  return Object.fromEntries(keys.map((k) => [k, arraysOf(obj[k])]));
}

const now = () => Math.floor(Date.now() / 1000);
const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** Stripe's signature header for `payload`, at `timestamp` (unix seconds). */
export function stripeSignature(payload: string, secret: string, timestamp = now()): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(String(body.message));
  }
}

const invalid = (message: string, code?: string, param?: string) =>
  new StripeError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code } : {}),
    ...(param ? { param } : {}),
  });

export class FakeStripe {
  readonly sessions = new Map<string, Obj>();
  readonly paymentIntents = new Map<string, Obj>();
  readonly setupIntents = new Map<string, Obj>();
  readonly refunds = new Map<string, Obj>();
  readonly events: Obj[] = [];
  readonly requests: FakeStripeRequest[] = [];
  readonly deliveries: DeliveryRecord[] = [];
  readonly endpoints: Endpoint[] = [];
  /** Send each event to the endpoints as it happens (false: the test sends them with `deliver`). */
  autoDeliver = true;
  /** Payment methods whose off-session charges are declined. */
  readonly decliningCards = new Set<string>();
  /** Decides a fault for a request, or nothing to answer normally. */
  fault: (request: FakeStripeRequest) => Fault | undefined = () => undefined;
  private readonly idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly hung: ServerResponse[] = [];
  private readonly requestWaiters = new Set<() => void>();
  private port = 0;

  private constructor(
    readonly secretKey: string,
    readonly accountName: string,
  ) {}

  static async start(
    secretKey = `sk_test_${randomBytes(12).toString('hex')}`,
    accountName = 'Salon Test',
  ): Promise<FakeStripe> {
    const fake = new FakeStripe(secretKey, accountName);
    fake.server = createServer((req, res) => {
      fake.handle(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
      });
    });
    fake.server.on('connection', (socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => fake.server?.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    for (const res of this.hung) res.destroy();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Resolves once a request matching `predicate` has been handled (its work done), at most `timeoutMs` later. */
  waitForRequest(
    predicate: (request: FakeStripeRequest) => boolean,
    timeoutMs = 60_000,
  ): Promise<FakeStripeRequest> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.requests.find((request) => predicate(request) && request.handled);
        if (!found) return;
        clearTimeout(timer);
        this.requestWaiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.requestWaiters.delete(check);
        reject(new Error('timed out waiting for a request to the fake Stripe'));
      }, timeoutMs);
      this.requestWaiters.add(check);
      check();
    });
  }

  private requestHandled(request: FakeStripeRequest): void {
    request.handled = true;
    for (const waiter of [...this.requestWaiters]) waiter();
  }

  /** Money the fake holds for the customer: succeeded charges minus succeeded refunds. */
  netCharged(): number {
    let total = 0;
    for (const intent of this.paymentIntents.values())
      if (intent.status === 'succeeded') total += intent.amount_received as number;
    for (const refund of this.refunds.values())
      if (refund.status === 'succeeded') total -= refund.amount as number;
    return total;
  }

  chargesOf(bookingId: string): Obj[] {
    return [...this.paymentIntents.values()].filter(
      (intent) => (intent.metadata as Obj).booking_id === bookingId && intent.status === 'succeeded',
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.origin);
    const path = url.pathname;

    if (path.startsWith('/checkout/')) return this.hostedPage(req.method ?? 'GET', path, res);

    const form = req.method === 'GET' ? parseStripeForm(url.searchParams.toString()) : parseStripeForm(raw);
    const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
    const request: FakeStripeRequest = { method: req.method ?? 'GET', path, form, idempotencyKey };
    this.requests.push(request);
    const send = (status: number, body: string, replayed = false) => {
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.setHeader('request-id', id('req'));
      if (replayed) res.setHeader('idempotent-replayed', 'true');
      res.end(body);
    };

    if (req.headers.authorization !== `Bearer ${this.secretKey}`)
      return send(
        401,
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }),
      );

    const fault = this.fault(request);
    if (fault === 'hang') {
      this.hung.push(res);
      return;
    }
    if (fault && typeof fault === 'object')
      return send(
        fault.status,
        JSON.stringify({ error: { type: 'api_error', message: fault.message ?? 'fault' } }),
      );

    const fingerprint = `${request.method} ${path} ${raw}`;
    const cacheKey =
      idempotencyKey && request.method === 'POST' ? `${this.secretKey}|${idempotencyKey}` : undefined;
    const cached = cacheKey ? this.idempotency.get(cacheKey) : undefined;
    if (cached) {
      if (cached.fingerprint !== fingerprint)
        return send(
          400,
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
            },
          }),
        );
      this.requestHandled(request);
      if (fault === 'drop-after-commit') {
        res.destroy();
        return;
      }
      return send(cached.status, cached.body, true);
    }

    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(this.route(request.method, path, form));
    } catch (error) {
      if (!(error instanceof StripeError)) throw error;
      status = error.status;
      body = JSON.stringify({ error: error.body });
    }
    if (cacheKey && status < 500) this.idempotency.set(cacheKey, { fingerprint, status, body });
    this.requestHandled(request);
    if (fault === 'hang-after-commit') {
      this.hung.push(res);
      return;
    }
    if (fault === 'drop-after-commit') {
      res.destroy();
      return;
    }
    send(status, body);
  }

  private route(method: string, path: string, form: Obj): Obj {
    if (method === 'GET' && path === '/v1/account')
      return {
        id: 'acct_test_kairos',
        object: 'account',
        business_profile: { name: this.accountName },
        settings: { dashboard: { display_name: this.accountName } },
        charges_enabled: true,
        country: 'DE',
        default_currency: 'eur',
      };
    if (method === 'POST' && path === '/v1/checkout/sessions') return this.createSession(form);
    let match = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && match)
      return this.expanded(this.session(match[1] as string), form.expand as string[]);
    match = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === 'POST' && match) return this.expire(this.session(match[1] as string));
    if (method === 'POST' && path === '/v1/payment_intents') return this.chargeOffSession(form);
    if (method === 'POST' && path === '/v1/refunds') return this.refund(form);
    throw new StripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  private session(sessionId: string): Obj {
    const session = this.sessions.get(sessionId);
    if (!session)
      throw new StripeError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such checkout.session: '${sessionId}'`,
      });
    return session;
  }

  private expanded(session: Obj, expand: string[] | undefined): Obj {
    const out = { ...session };
    for (const field of expand ?? []) {
      const ref = session[field];
      if (typeof ref !== 'string') continue;
      out[field] = field === 'payment_intent' ? this.paymentIntents.get(ref) : this.setupIntents.get(ref);
    }
    return out;
  }

  private createSession(form: Obj): Obj {
    const mode = form.mode;
    if (mode !== 'payment' && mode !== 'setup') throw invalid('Invalid mode', undefined, 'mode');
    if (typeof form.success_url !== 'string')
      throw invalid('Missing required param: success_url.', 'parameter_missing', 'success_url');
    let amount: number | null = null;
    let currency: string | null = null;
    if (mode === 'payment') {
      const items = form.line_items as Obj[] | undefined;
      const item = items?.[0];
      const priceData = item?.price_data as Obj | undefined;
      if (!priceData || items?.length !== 1)
        throw invalid('Missing required param: line_items.', 'parameter_missing', 'line_items');
      amount = Number(priceData.unit_amount) * Number(item?.quantity ?? 1);
      currency = String(priceData.currency);
      if (!Number.isInteger(amount) || amount < 1)
        throw invalid('Invalid integer', undefined, 'line_items[0][price_data][unit_amount]');
    } else {
      if (typeof form.currency !== 'string')
        throw invalid('Missing required param: currency.', 'parameter_missing', 'currency');
      currency = form.currency;
    }
    const sessionId = id('cs');
    const session: Obj = {
      id: sessionId,
      object: 'checkout.session',
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: form.cancel_url ?? null,
      client_reference_id: form.client_reference_id ?? null,
      created: now(),
      currency,
      customer: null,
      customer_creation: form.customer_creation ?? null,
      customer_email: form.customer_email ?? null,
      expires_at: form.expires_at ? Number(form.expires_at) : now() + 24 * 3600,
      livemode: false,
      metadata: form.metadata ?? {},
      mode,
      payment_intent: null,
      payment_status: mode === 'setup' ? 'no_payment_required' : 'unpaid',
      setup_intent: null,
      status: 'open',
      success_url: form.success_url,
      url: `${this.origin}/checkout/${sessionId}`,
      // Not Stripe's fields: what the request asked for the objects made on payment.
      _payment_intent_data: form.payment_intent_data ?? {},
      _setup_intent_data: form.setup_intent_data ?? {},
    };
    this.sessions.set(sessionId, session);
    return publicOf(session);
  }

  private expire(session: Obj): Obj {
    if (session.status !== 'open')
      throw invalid(
        `Only Checkout Sessions with a status in [open] can be expired.`,
        'checkout_session_not_open',
      );
    session.status = 'expired';
    session.url = null;
    this.emit('checkout.session.expired', publicOf(session));
    return publicOf(session);
  }

  /** The customer pays on the hosted page (or leaves a card, in setup mode). */
  pay(sessionId: string, paymentMethod = id('pm')): Obj {
    const session = this.session(sessionId);
    if (session.status !== 'open')
      throw invalid('This Checkout Session is no longer active.', 'checkout_session_not_open');
    const customer = id('cus');
    session.customer = customer;
    session.status = 'complete';
    if (session.mode === 'setup') {
      const setup: Obj = {
        id: id('seti'),
        object: 'setup_intent',
        customer,
        payment_method: paymentMethod,
        status: 'succeeded',
        usage: 'off_session',
        metadata: (session._setup_intent_data as Obj).metadata ?? {},
      };
      this.setupIntents.set(setup.id as string, setup);
      session.setup_intent = setup.id;
    } else {
      const data = session._payment_intent_data as Obj;
      const intent: Obj = {
        id: id('pi'),
        object: 'payment_intent',
        amount: session.amount_total,
        amount_received: session.amount_total,
        currency: session.currency,
        customer,
        payment_method: paymentMethod,
        setup_future_usage: data.setup_future_usage ?? null,
        status: 'succeeded',
        metadata: data.metadata ?? {},
        last_payment_error: null,
        created: now(),
        livemode: false,
      };
      this.paymentIntents.set(intent.id as string, intent);
      session.payment_intent = intent.id;
      session.payment_status = 'paid';
      this.emit('payment_intent.succeeded', intent);
    }
    this.emit('checkout.session.completed', publicOf(session));
    return publicOf(session);
  }

  private chargeOffSession(form: Obj): Obj {
    const amount = Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1) throw invalid('Invalid integer', undefined, 'amount');
    if (form.off_session !== 'true' || form.confirm !== 'true')
      throw invalid('This fake takes off-session confirmed PaymentIntents only.', undefined, 'off_session');
    const known = [...this.setupIntents.values(), ...this.paymentIntents.values()].some(
      (o) => o.payment_method === form.payment_method && o.customer === form.customer,
    );
    if (!known)
      throw invalid(
        `No such PaymentMethod: '${String(form.payment_method)}'`,
        'resource_missing',
        'payment_method',
      );
    const declined = this.decliningCards.has(String(form.payment_method));
    const intent: Obj = {
      id: id('pi'),
      object: 'payment_intent',
      amount,
      amount_received: declined ? 0 : amount,
      currency: form.currency,
      customer: form.customer,
      payment_method: form.payment_method,
      description: form.description ?? null,
      status: declined ? 'requires_payment_method' : 'succeeded',
      metadata: form.metadata ?? {},
      last_payment_error: declined
        ? { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' }
        : null,
      created: now(),
      livemode: false,
    };
    this.paymentIntents.set(intent.id as string, intent);
    if (declined) {
      this.emit('payment_intent.payment_failed', intent);
      throw new StripeError(402, {
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'generic_decline',
        message: 'Your card was declined.',
        payment_intent: intent,
      });
    }
    this.emit('payment_intent.succeeded', intent);
    return intent;
  }

  private refund(form: Obj): Obj {
    const intent = this.paymentIntents.get(String(form.payment_intent));
    if (!intent)
      throw invalid(
        `No such payment_intent: '${String(form.payment_intent)}'`,
        'resource_missing',
        'payment_intent',
      );
    const refunded = [...this.refunds.values()]
      .filter((r) => r.payment_intent === intent.id && r.status !== 'failed')
      .reduce((sum, r) => sum + (r.amount as number), 0);
    const left = (intent.amount_received as number) - refunded;
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (left <= 0) throw invalid(`Charge has already been refunded.`, 'charge_already_refunded');
    if (!Number.isInteger(amount) || amount < 1 || amount > left)
      throw invalid(
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
        'amount_too_large',
        'amount',
      );
    const refund: Obj = {
      id: id('re'),
      object: 'refund',
      amount,
      currency: intent.currency,
      payment_intent: intent.id,
      status: 'succeeded',
      metadata: form.metadata ?? {},
      created: now(),
    };
    this.refunds.set(refund.id as string, refund);
    this.emit('refund.created', refund);
    return refund;
  }

  private emit(type: string, object: Obj): void {
    const event: Obj = {
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      data: { object: structuredClone(object) },
      livemode: false,
      pending_webhooks: this.endpoints.length,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.events.push(event);
    if (this.autoDeliver) void this.deliver(event).catch(() => undefined);
  }

  /** Sends one event to every endpoint (again, if it was sent before); the statuses answered. */
  async deliver(event: Obj, options: { secret?: string; timestamp?: number } = {}): Promise<number[]> {
    const payload = JSON.stringify(event, null, 2);
    const statuses: number[] = [];
    for (const endpoint of this.endpoints) {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': stripeSignature(payload, options.secret ?? endpoint.secret, options.timestamp),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        },
        body: payload,
      });
      await response.arrayBuffer();
      this.deliveries.push({ eventId: String(event.id), type: String(event.type), status: response.status });
      statuses.push(response.status);
    }
    return statuses;
  }

  eventsOf(type: string): Obj[] {
    return this.events.filter((event) => event.type === type);
  }

  private hostedPage(method: string, path: string, res: ServerResponse): void {
    const match = /^\/checkout\/([^/]+)(\/pay)?$/.exec(path);
    const session = match ? this.sessions.get(match[1] as string) : undefined;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    if (!session) {
      res.statusCode = 404;
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
      return;
    }
    if (session.status !== 'open') {
      res.statusCode = 410;
      res.end('<!doctype html><title>Expired</title><h1>This checkout session is no longer active.</h1>');
      return;
    }
    if (method === 'POST' && match?.[2]) {
      this.pay(session.id as string);
      res.statusCode = 303;
      res.setHeader(
        'location',
        String(session.success_url).replace('{CHECKOUT_SESSION_ID}', String(session.id)),
      );
      res.end();
      return;
    }
    const amount =
      session.mode === 'setup'
        ? 'Save card'
        : `Pay ${((session.amount_total as number) / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`;
    res.end(`<!doctype html><html><head><title>Fake Stripe Checkout</title></head><body>
<h1>Fake Stripe Checkout</h1>
<form method="post" action="/checkout/${String(session.id)}/pay"><button type="submit">${amount}</button></form>
<a href="${String(session.cancel_url ?? '')}">Back</a>
</body></html>`);
  }
}

/** A session as Stripe shows it (without the fake's own bookkeeping fields). */
function publicOf(session: Obj): Obj {
  const { _payment_intent_data, _setup_intent_data, ...rest } = session;
  return { ...rest };
}
