import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A fake Twilio on 127.0.0.1 (random port) with the parts of the REST API Kairos uses, answering
 * in Twilio's documented shapes: `POST /2010-04-01/Accounts/{sid}/Messages.json` (form body, HTTP
 * Basic auth with the Account SID and auth token), `GET .../Messages.json` (the list, filtered by
 * To) and `GET .../Messages/{MessageSid}.json`. It sends status callbacks and inbound messages to
 * the URLs Kairos gave, signed as Twilio signs them: X-Twilio-Signature = base64(HMAC-SHA1(auth
 * token, URL + each POST parameter's name and value, sorted by name)). The signing is written out
 * here, not taken from the twilio package, so a test fails if Kairos checks it wrongly.
 */
export interface FakeTwilioMessage {
  sid: string;
  account_sid: string;
  api_version: '2010-04-01';
  body: string;
  date_created: string;
  date_sent: string | null;
  date_updated: string;
  direction: 'outbound-api';
  error_code: number | null;
  error_message: string | null;
  from: string | null;
  messaging_service_sid: string | null;
  num_media: string;
  num_segments: string;
  price: string | null;
  price_unit: string;
  status: string;
  subresource_uris: { media: string };
  to: string;
  uri: string;
  /** Not Twilio's: what the create request asked for. */
  statusCallback?: string;
}

/** How to answer a create: Twilio's answer, an error status, or hold it until the test says. */
export type CreateReply = 'accept' | { status: number; code: number; message: string } | 'hold';

export class FakeTwilio {
  readonly messages: FakeTwilioMessage[] = [];
  /** Every create request received, accepted or not, with its parsed form. */
  readonly creates: Record<string, string>[] = [];
  reply: (form: Record<string, string>, index: number) => CreateReply = () => 'accept';
  /** The price a message shows once fetched after sending (Twilio fills it in later). */
  priceOnFetch = '-0.00790';
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private waiters: { count: number; resolve: () => void }[] = [];
  private held: (() => void)[] = [];
  private port = 0;

  private constructor(
    readonly accountSid: string,
    readonly authToken: string,
  ) {}

  static async start(
    accountSid = `AC${randomBytes(16).toString('hex')}`,
    authToken = randomBytes(16).toString('hex'),
  ): Promise<FakeTwilio> {
    const fake = new FakeTwilio(accountSid, authToken);
    fake.server = createServer((request, response) => {
      fake.handle(request, response).catch((error) => {
        response.writeHead(500).end(String(error));
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

  /** Resolves once at least `count` create requests have arrived. */
  waitForCreates(count: number, timeoutMs = 10_000): Promise<void> {
    if (this.creates.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`fake Twilio got ${this.creates.length} of ${count} creates`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** Answers the held creates. */
  release(): void {
    for (const go of this.held.splice(0)) go();
  }

  private base(): string {
    return `/2010-04-01/Accounts/${this.accountSid}`;
  }

  private json(response: ServerResponse, status: number, body: unknown): void {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', this.origin);
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      return this.json(response, 401, {
        code: 20003,
        message: 'Authenticate',
        more_info: 'https://www.twilio.com/docs/errors/20003',
        status: 401,
      });
    }
    if (request.method === 'POST' && url.pathname === `${this.base()}/Messages.json`) {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
      const index = this.creates.push(form) - 1;
      for (const waiter of this.waiters.filter((w) => this.creates.length >= w.count)) waiter.resolve();
      const reply = this.reply(form, index);
      if (reply === 'hold') {
        // Twilio took the message; its answer is slow. The worker may be killed meanwhile.
        const message = this.create(form);
        await new Promise<void>((resolve) => this.held.push(resolve));
        return this.json(response, 201, message);
      }
      if (reply !== 'accept') {
        return this.json(response, reply.status, {
          code: reply.code,
          message: reply.message,
          more_info: `https://www.twilio.com/docs/errors/${reply.code}`,
          status: reply.status,
        });
      }
      return this.json(response, 201, this.create(form));
    }
    if (request.method === 'GET' && url.pathname === `${this.base()}/Messages.json`) {
      const to = url.searchParams.get('To');
      const found = this.messages.filter((m) => to === null || m.to === to).reverse();
      return this.json(response, 200, {
        first_page_uri: `${this.base()}/Messages.json?PageSize=50&Page=0`,
        end: Math.max(0, found.length - 1),
        previous_page_uri: null,
        messages: found.map(({ statusCallback: _, ...m }) => m),
        uri: `${this.base()}/Messages.json?PageSize=50&Page=0`,
        page_size: 50,
        start: 0,
        next_page_uri: null,
        page: 0,
      });
    }
    const one = new RegExp(`^${this.base()}/Messages/(SM[0-9a-f]{32})\\.json$`).exec(url.pathname);
    if (request.method === 'GET' && one) {
      const message = this.messages.find((m) => m.sid === one[1]);
      if (!message) return this.json(response, 404, { code: 20404, message: 'Not found', status: 404 });
      const { statusCallback: _, ...shown } = message;
      return this.json(response, 200, { ...shown, price: this.priceOnFetch });
    }
    this.json(response, 404, { code: 20404, message: 'The requested resource was not found', status: 404 });
  }

  private create(form: Record<string, string>): FakeTwilioMessage {
    const now = new Date().toUTCString().replace('GMT', '+0000');
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const message: FakeTwilioMessage = {
      sid,
      account_sid: this.accountSid,
      api_version: '2010-04-01',
      body: form.Body ?? '',
      date_created: now,
      date_sent: null,
      date_updated: now,
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from: form.From ?? null,
      messaging_service_sid: form.MessagingServiceSid ?? null,
      num_media: '0',
      num_segments: '1',
      price: null,
      price_unit: 'USD',
      status: 'queued',
      subresource_uris: { media: `${this.base()}/Messages/${sid}/Media.json` },
      to: form.To ?? '',
      uri: `${this.base()}/Messages/${sid}.json`,
      ...(form.StatusCallback ? { statusCallback: form.StatusCallback } : {}),
    };
    this.messages.push(message);
    return message;
  }

  /** Twilio's signature of a POST to `url` with `params`. */
  sign(url: string, params: Record<string, string>): string {
    const data = Object.keys(params)
      .sort()
      .reduce((text, key) => text + key + params[key], url);
    return createHmac('sha1', this.authToken).update(Buffer.from(data, 'utf-8')).digest('base64');
  }

  /** POSTs a signed form to `url` as Twilio does; answers the status and body. */
  async post(url: string, params: Record<string, string>, signature = this.sign(url, params)) {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
        'user-agent': 'TwilioProxy/1.1',
      },
      body: new URLSearchParams(params).toString(),
    });
    return { status: response.status, body: await response.text() };
  }

  /** The status callback of message `sid` (to the URL its create named). */
  async statusCallback(
    sid: string,
    status: 'sent' | 'delivered' | 'failed' | 'undelivered',
    errorCode?: string,
  ) {
    const message = this.messages.find((m) => m.sid === sid);
    if (!message?.statusCallback) throw new Error(`no status callback for ${sid}`);
    message.status = status;
    return this.post(message.statusCallback, {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      From: message.from ?? '',
      MessageSid: sid,
      MessageStatus: status,
      SmsSid: sid,
      SmsStatus: status,
      To: message.to,
      ...(errorCode ? { ErrorCode: errorCode } : {}),
    });
  }

  /** An inbound message from `from` to `to`, to the URL set as the number's messaging webhook. */
  inbound(url: string, from: string, to: string, body: string, sid = `SM${randomBytes(16).toString('hex')}`) {
    return this.post(url, {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      Body: body,
      From: from,
      FromCountry: 'DE',
      MessageSid: sid,
      NumMedia: '0',
      NumSegments: '1',
      SmsMessageSid: sid,
      SmsSid: sid,
      SmsStatus: 'received',
      To: to,
    });
  }

  async close(): Promise<void> {
    this.release();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
