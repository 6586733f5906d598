import { Redis } from 'ioredis';
import {
  DEFAULT_CHANNEL,
  type InvalidationBus,
  type InvalidationListener,
  Listeners,
  parseMessage,
} from './invalidation-bus.js';

export interface RedisBusOptions {
  /** REDIS_URL, e.g. redis://127.0.0.1:6379 */
  url: string;
  channel?: string;
  /** CLIENT SETNAME of the subscribed connection, so an operator can find it in CLIENT LIST. */
  connectionName?: string;
  onError?: (error: unknown) => void;
}

/**
 * Redis pub/sub: one connection subscribed (a subscribed Redis connection can do nothing else),
 * one for PUBLISH. ioredis reconnects and subscribes again by itself; after such a reconnect
 * listeners are told that anything may have changed, since messages in the gap are lost. Works
 * behind PgBouncer in transaction mode and on Citus, where LISTEN/NOTIFY does not.
 */
export class RedisBus implements InvalidationBus {
  readonly kind = 'redis' as const;
  private readonly listeners = new Listeners();
  private readonly channel: string;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<void>;

  constructor(options: RedisBusOptions) {
    this.channel = options.channel ?? DEFAULT_CHANNEL;
    const onError = (error: unknown) => options.onError?.(error);
    // A publish while Redis is down fails at once instead of queueing behind the request.
    this.publisher = new Redis(options.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.subscriber = new Redis(options.url, {
      autoResubscribe: true,
      connectionName: options.connectionName ?? 'kairos-invalidation',
    });
    this.publisher.on('error', onError);
    this.subscriber.on('error', onError);
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const workspaceId = parseMessage(message);
      if (workspaceId) this.listeners.emit(workspaceId);
    });
    let readyOnce = false;
    this.subscriber.on('ready', () => {
      if (readyOnce) this.listeners.emit(undefined);
      readyOnce = true;
    });
    this.subscribed = this.subscriber.subscribe(this.channel).then(() => undefined);
  }

  async ready(): Promise<void> {
    await this.subscribed;
    if (this.publisher.status !== 'ready') {
      await new Promise<void>((resolve) => this.publisher.once('ready', () => resolve()));
    }
  }

  async publish(workspaceId: string): Promise<void> {
    try {
      await this.publisher.publish(this.channel, workspaceId);
    } catch (error) {
      // The cache TTL covers a lost message; a write must not fail because of it.
      this.publisher.emit('error', error);
    }
  }

  subscribe(listener: InvalidationListener): () => void {
    return this.listeners.add(listener);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}
