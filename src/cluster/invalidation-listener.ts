import pg from 'pg';
import { INVALIDATION_CHANNEL, parseInvalidation, type InvalidationMessage } from './invalidation-message.ts';

export interface InvalidationListenerOptions {
  databaseUrl: string;
  onMessage(message: InvalidationMessage): void;
  /** Called with `true` once LISTEN is active and `false` when the connection is lost. */
  onConnectedChange(connected: boolean): void;
  onError(err: unknown): void;
  /** A liveness query on the LISTEN connection, so a silently dead socket is noticed (ms). */
  heartbeatMs?: number;
  /** Reconnect backoff: doubles from `minBackoffMs` up to `maxBackoffMs`, with jitter. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

/**
 * A dedicated PostgreSQL connection that `LISTEN`s for cache invalidations from every node
 * (https://www.postgresql.org/docs/current/sql-notify.html: notifications are delivered only to
 * sessions listening at commit time, so a lost connection means possibly missed messages — the
 * caller clears its whole cache on every (re)connect). Reconnects forever with capped backoff.
 */
export class InvalidationListener {
  readonly #opts: Required<InvalidationListenerOptions>;
  #client: pg.Client | undefined;
  #connected = false;
  #closed = false;
  #attempt = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #heartbeatTimer: NodeJS.Timeout | undefined;

  constructor(opts: InvalidationListenerOptions) {
    this.#opts = { heartbeatMs: 2000, minBackoffMs: 100, maxBackoffMs: 5000, ...opts };
  }

  get connected(): boolean {
    return this.#connected;
  }

  /** Connects once; on failure keeps retrying in the background (never throws). */
  async start(): Promise<void> {
    await this.#connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearInterval(this.#heartbeatTimer);
    const client = this.#client;
    this.#client = undefined;
    if (client) await client.end().catch(() => {});
  }

  async #connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({
      connectionString: this.#opts.databaseUrl,
      keepAlive: true,
      connectionTimeoutMillis: 3000,
      query_timeout: Math.max(1000, this.#opts.heartbeatMs),
      application_name: 'legible-invalidation-listener',
    });
    client.on('error', (err) => this.#lost(client, err));
    client.on('end', () => this.#lost(client, undefined));
    client.on('notification', (n) => {
      if (n.channel !== INVALIDATION_CHANNEL) return;
      const message = parseInvalidation(n.payload);
      if (message) this.#opts.onMessage(message);
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${INVALIDATION_CHANNEL}`);
    } catch (err) {
      this.#lost(client, err);
      return;
    }
    if (this.#closed || this.#client !== client) return;
    this.#attempt = 0;
    this.#connected = true;
    this.#opts.onConnectedChange(true);
    this.#heartbeatTimer = setInterval(() => {
      client.query('select 1').catch((err) => this.#lost(client, err));
    }, this.#opts.heartbeatMs);
    this.#heartbeatTimer.unref();
  }

  #lost(client: pg.Client, err: unknown): void {
    if (this.#client !== client) return; // a stale client's late events
    this.#client = undefined;
    clearInterval(this.#heartbeatTimer);
    client.end().catch(() => {});
    if (this.#closed) return;
    if (err) this.#opts.onError(err);
    if (this.#connected) {
      this.#connected = false;
      this.#opts.onConnectedChange(false);
    }
    const base = Math.min(this.#opts.maxBackoffMs, this.#opts.minBackoffMs * 2 ** this.#attempt);
    this.#attempt += 1;
    const delay = base / 2 + Math.random() * (base / 2);
    this.#retryTimer = setTimeout(() => void this.#connect(), delay);
    this.#retryTimer.unref();
  }
}
