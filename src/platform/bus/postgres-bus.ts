import pg from 'pg';
import {
  DEFAULT_CHANNEL,
  type InvalidationBus,
  type InvalidationListener,
  Listeners,
  parseMessage,
} from './invalidation-bus.js';

export interface PostgresBusOptions {
  connectionString: string;
  channel?: string;
  /** First wait before reconnecting; doubles up to 5 s. */
  reconnectMs?: number;
  onError?: (error: unknown) => void;
}

const MAX_RECONNECT_MS = 5_000;

/**
 * LISTEN/NOTIFY on one dedicated connection (not one of the pool's: a pooled connection goes
 * back to others between queries, and a LISTEN needs a session that stays). The same connection
 * sends NOTIFY. When it drops, it is opened again with backoff, and listeners are told that
 * anything may have changed meanwhile. Needs a session: not through PgBouncer in transaction
 * mode (use Redis there), and on Citus every process must talk to the coordinator.
 */
export class PostgresBus implements InvalidationBus {
  readonly kind = 'postgres' as const;
  private readonly listeners = new Listeners();
  private readonly channel: string;
  private client: pg.Client | undefined;
  private connected: Promise<void>;
  private everConnected = false;
  private closed = false;
  private retryMs: number;

  constructor(private readonly options: PostgresBusOptions) {
    this.channel = options.channel ?? DEFAULT_CHANNEL;
    if (!/^[a-z_][a-z0-9_]*$/.test(this.channel)) throw new Error(`bad channel name ${this.channel}`);
    this.retryMs = options.reconnectMs ?? 100;
    this.connected = this.connect();
  }

  private async connect(): Promise<void> {
    while (!this.closed) {
      const client = new pg.Client({ connectionString: this.options.connectionString });
      client.on('notification', (message) => {
        if (message.channel !== this.channel) return;
        const workspaceId = parseMessage(message.payload);
        if (workspaceId) this.listeners.emit(workspaceId);
      });
      // 'error' then 'end' both follow a drop; reconnect once.
      let dropped = false;
      const onDrop = (error?: unknown) => {
        if (error) this.options.onError?.(error);
        if (dropped || this.closed || this.client !== client) return;
        dropped = true;
        this.client = undefined;
        this.connected = this.connect();
      };
      client.on('error', onDrop);
      client.on('end', () => onDrop());
      try {
        await client.connect();
        await client.query(`LISTEN ${this.channel}`);
        if (this.closed) {
          await client.end();
          return;
        }
        this.client = client;
        this.retryMs = this.options.reconnectMs ?? 100;
        // Whatever was published while no one listened is lost: tell listeners to drop all.
        if (this.everConnected) this.listeners.emit(undefined);
        this.everConnected = true;
        return;
      } catch (error) {
        this.options.onError?.(error);
        await client.end().catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, this.retryMs));
        this.retryMs = Math.min(this.retryMs * 2, MAX_RECONNECT_MS);
      }
    }
  }

  ready(): Promise<void> {
    return this.connected;
  }

  async publish(workspaceId: string): Promise<void> {
    try {
      const client = this.client;
      if (!client) throw new Error('invalidation bus: not connected');
      await client.query('SELECT pg_notify($1, $2)', [this.channel, workspaceId]);
    } catch (error) {
      // The cache TTL covers a lost message; a write must not fail because of it.
      this.options.onError?.(error);
    }
  }

  subscribe(listener: InvalidationListener): () => void {
    return this.listeners.add(listener);
  }

  /** The backend pid of the listening session (tests end it to check the reconnect). */
  async listenerPid(): Promise<number | undefined> {
    return (this.client as unknown as { processID?: number } | undefined)?.processID;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}
