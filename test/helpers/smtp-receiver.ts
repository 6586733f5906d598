import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/**
 * A real SMTP server on loopback (smtp-server), for the mail tests: it accepts, refuses or drops
 * each message as the test says, and keeps what it accepted parsed (mailparser), so tests read
 * Message-IDs, subjects, bodies and attachments as a receiving server would.
 */
export type Behaviour =
  /** 250: accepted and kept. */
  | 'accept'
  /** The whole message read, then the connection closed without an answer (an unclear end). */
  | 'drop'
  /** A reply of this code after DATA (4xx: try again later; 5xx: refused for good). */
  | { reply: number; message?: string };

export interface ReceivedMail {
  raw: Buffer;
  parsed: ParsedMail;
  messageId: string;
  envelopeTo: string[];
  user: string | undefined;
}

export class SmtpReceiver {
  /** Accepted messages, in order. */
  readonly accepted: ReceivedMail[] = [];
  /** Message-IDs of every DATA the server read, whatever it answered. */
  readonly seen: string[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
    private readonly auth: { user: string; pass: string } | undefined,
  ) {}

  /**
   * Starts on 127.0.0.1 (`port` 0 = any free one). `behave(n)` decides the fate of the n-th DATA
   * (0-based); by default every message is accepted. With `auth`, clients must log in with it.
   */
  static async start(
    options: {
      port?: number;
      behave?: (index: number) => Behaviour;
      auth?: { user: string; pass: string };
    } = {},
  ): Promise<SmtpReceiver> {
    let receiver: SmtpReceiver | undefined;
    let index = 0;
    const server = new SMTPServer({
      logger: false,
      disabledCommands: ['STARTTLS'],
      authOptional: options.auth === undefined,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass)
          return callback(null, { user: auth.username });
        return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          const raw = Buffer.concat(chunks);
          const parsed = await simpleParser(raw);
          const messageId = parsed.messageId ?? '';
          const self = receiver!;
          self.seen.push(messageId);
          const behaviour = options.behave?.(index++) ?? 'accept';
          if (behaviour === 'drop') {
            for (const connection of server.connections) {
              if (connection.id === session.id) connection._socket.destroy();
            }
            return;
          }
          if (behaviour !== 'accept') {
            const error = Object.assign(new Error(behaviour.message ?? 'Try again later'), {
              responseCode: behaviour.reply,
            });
            return callback(error);
          }
          self.accepted.push({
            raw,
            parsed,
            messageId,
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            user: typeof session.user === 'string' ? session.user : undefined,
          });
          callback(null, `Ok: queued as ${self.accepted.length}`);
          self.wake();
        });
      },
    });
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        const address = server.server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
    receiver = new SmtpReceiver(server, port, options.auth);
    return receiver;
  }

  /** SMTP_URL of this server. */
  get url(): string {
    const auth = this.auth
      ? `${encodeURIComponent(this.auth.user)}:${encodeURIComponent(this.auth.pass)}@`
      : '';
    return `smtp://${auth}127.0.0.1:${this.port}`;
  }

  /** Resolves once `count` messages were accepted; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedMail[]> {
    if (this.accepted.length >= count) return Promise.resolve(this.accepted);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.accepted.length} of ${count} emails arrived within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.waiters.push({
        count,
        resolve: () => {
          clearTimeout(timer);
          resolve(this.accepted);
        },
      });
    });
  }

  private wake(): void {
    const ready = this.waiters.filter((w) => this.accepted.length >= w.count);
    this.waiters = this.waiters.filter((w) => this.accepted.length < w.count);
    for (const waiter of ready) waiter.resolve();
  }

  /** Accepted messages counted by Message-ID. */
  countsByMessageId(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const mail of this.accepted) counts.set(mail.messageId, (counts.get(mail.messageId) ?? 0) + 1);
    return counts;
  }

  async close(): Promise<void> {
    for (const connection of this.server.connections) connection._socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The lines of an .ics file, unfolded (RFC 5545 §3.1), as name → value of their first occurrence. */
export function icsProperties(ics: string): Map<string, string> {
  const lines = ics.replace(/\r\n[ \t]/g, '').split(/\r\n/);
  const properties = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).split(';')[0]!;
    if (!properties.has(name)) properties.set(name, line.slice(colon + 1));
  }
  return properties;
}
