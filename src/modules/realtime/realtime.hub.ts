import { randomUUID } from 'node:crypto';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Deps } from '../../deps.js';
import type { TenantContext } from '../../plugins/context.js';
import { EVENTS_CHANNEL, type StreamEvent } from '../../db/outbox.js';
import type { ConnectionKind, ConnectionRef, ConnectionRegistry } from './connection-registry.js';
import { stillAuthorized } from './realtime.auth.js';
import { parseStreamEvent, sseMessage, SSE_CHANNEL, visibleTo, type RealtimeMessage } from './realtime.events.js';
import { missedEvents, streamPosition, type Channel } from './realtime.repository.js';
import { SseStream, type SseCloseReason, type SseSink } from './sse-stream.js';

export interface RealtimeOptions {
  /** Concurrent connections per tenant and kind (the spec: 10; beyond that the oldest is closed). */
  maxConnectionsPerTenant: number;
  /** SSE heartbeat (the spec: every 30 s); each heartbeat also re-checks the stream's credentials. */
  heartbeatMs: number;
  /** The reconnection delay SSE clients are told. */
  sseRetryMs: number;
  /** The reconnection delay an SSE client closed for the cap is told (so that evictions do not ping-pong). */
  evictedRetryMs: number;
  /** The reconnection delay SSE clients are told when this process shuts down (they reconnect elsewhere). */
  shutdownRetryMs: number;
  /** The reconnection delay an SSE client is told when its stream cannot open for a failure of ours (database away). */
  unavailableRetryMs: number;
  /** Bytes waiting for a slow SSE client before it is dropped. */
  maxBufferedBytes: number;
  /** Live events held for one SSE client during its replay, or queued for one socket, before it is dropped. */
  maxPending: number;
  /** How far back Last-Event-ID replay reaches, and how many events at most. */
  replayWindowMs: number;
  replayLimit: number;
  /** Cross-instance registry: how long a connection counts without its instance renewing it, and how often it is renewed. */
  leaseMs: number;
  leaseRefreshMs: number;
}

export const DEFAULT_REALTIME_OPTIONS: RealtimeOptions = {
  maxConnectionsPerTenant: 10,
  heartbeatMs: 30_000,
  sseRetryMs: 5_000,
  evictedRetryMs: 60_000,
  shutdownRetryMs: 1_000,
  unavailableRetryMs: 2_000,
  maxBufferedBytes: 1 << 20,
  maxPending: 1_000,
  replayWindowMs: 24 * 3_600_000,
  replayLimit: 1_000,
  leaseMs: 90_000,
  leaseRefreshMs: 30_000,
};

/** Broadcast channel for instructions between API instances (close connection X: the cap across instances). */
export const CONTROL_CHANNEL = 'realtime-control';

interface CloseInstruction {
  type: 'close';
  kind: ConnectionKind;
  tenantId: string;
  id: string;
}

interface SseClient {
  ref: ConnectionRef;
  ctx: TenantContext;
  driverScope: string | null | undefined;
  apiKey: string | undefined;
  stream: SseStream;
  heartbeat?: ReturnType<typeof setInterval>;
}

/** What the hub needs from the Socket.IO side (set once the server is attached). */
export interface SocketSide {
  deliver(event: StreamEvent): void;
  /** Closes a socket of the cap's choosing, on whichever instance holds it. */
  evict(tenantId: string, socketId: string): void;
  /** Re-checks every local socket's credentials and closes those no longer valid (on a timer; tests call it by hand). */
  recheck(): Promise<void>;
  /** Closes every socket of this instance so that its client reconnects (to another instance) and resumes (shutdown). */
  closeAll(): Promise<void>;
  /** The sockets of this instance, for lease renewal. */
  localRefs(): ConnectionRef[];
  /** Sends each local socket what it may have missed since its position (the broadcast was interrupted). */
  catchUp(): Promise<void>;
}

export type OpenSseInput = {
  ctx: TenantContext;
  driverScope: string | null | undefined;
  apiKey: string | undefined;
  lastEventId: number | undefined;
  sink: SseSink & { on(event: 'close', listener: () => void): unknown };
  /** Send the preamble and any replay, then end (app.inject cannot read a stream that never ends). */
  oneShot: boolean;
};

/**
 * This API process's realtime side: receives every dispatched event from the broadcast and fans it
 * out to this process's SSE streams and sockets (each process its own clients, so nothing is sent
 * twice), keeps the per-tenant connection caps through the registry (Redis: across every process),
 * and carries out "close connection X" instructions for the connections it holds.
 */
export class RealtimeHub {
  private readonly sseById = new Map<string, SseClient>();
  private readonly sseByTenant = new Map<string, Set<SseClient>>();
  private sockets: SocketSide | undefined;
  private leaseTimer: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private readonly gauge: Gauge<'kind'>;
  private readonly closedCounter: Counter<'kind' | 'reason'>;

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'clock' | 'broadcast' | 'log' | 'config' | 'tokens' | 'principals' | 'apiKeyUsage' | 'rateLimits'>,
    readonly registry: ConnectionRegistry,
    readonly opts: RealtimeOptions,
    metrics: Registry,
  ) {
    this.gauge =
      (metrics.getSingleMetric('realtime_connections') as Gauge<'kind'> | undefined) ??
      new Gauge({ name: 'realtime_connections', help: 'Open realtime connections in this process, by kind (sse, socketio)', labelNames: ['kind'], registers: [metrics] });
    this.closedCounter =
      (metrics.getSingleMetric('realtime_connections_closed_total') as Counter<'kind' | 'reason'> | undefined) ??
      new Counter({
        name: 'realtime_connections_closed_total',
        help: 'Realtime connections closed, by kind and reason (client, evicted, slow, revoked, shutdown)',
        labelNames: ['kind', 'reason'],
        registers: [metrics],
      });
    this.gauge.set({ kind: 'sse' }, 0);
    this.gauge.set({ kind: 'socketio' }, 0);
  }

  async start(): Promise<void> {
    await this.deps.broadcast.subscribe(EVENTS_CHANNEL, (raw) => this.onEvent(raw));
    await this.deps.broadcast.subscribe(CONTROL_CHANNEL, (raw) => this.onControl(raw));
    // Events published while the subscription was down (a Redis restart) never arrive: read them back.
    this.deps.broadcast.onGap(() => void this.catchUp().catch((err: unknown) => this.deps.log.warn({ err }, 'could not catch realtime clients up after a broadcast interruption')));
    if (this.registry.reach === 'cluster') {
      this.leaseTimer = setInterval(() => void this.renewLeases(), this.opts.leaseRefreshMs);
      this.leaseTimer.unref();
      // A registry that lost its state (Redis restarted) holds the caps again at once, not at the next renewal.
      this.registry.onReset?.(() => void this.renewLeases());
    }
  }

  /**
   * Renews this process's connections in the registry. Those the registry no longer knows (it lost its
   * state: a Redis restart) are registered again, oldest first, so that the caps hold again; should that
   * put a tenant over its cap, the oldest are closed as for any new connection.
   */
  async renewLeases(): Promise<void> {
    try {
      const missing = await this.registry.refresh(this.localRefs());
      for (const ref of missing) await this.admit(ref);
    } catch (err) {
      this.deps.log.warn({ err }, 'could not renew realtime connection leases');
    }
  }

  /**
   * Sends every local client the events it may have missed while the broadcast was interrupted, read back
   * from the outbox from each client's position (each client drops what it already has).
   */
  async catchUp(): Promise<void> {
    if (this.stopped) return;
    const since = new Date(this.deps.clock.now().getTime() - this.opts.replayWindowMs);
    for (const [tenantId, clients] of this.sseByTenant) {
      const open = [...clients].filter((c) => !c.stream.isClosed);
      if (open.length === 0) continue;
      const missed = await this.replay(tenantId, Math.min(...open.map((c) => c.stream.position)), undefined, since, SSE_CHANNEL);
      for (const client of open) for (const m of missed) if (visibleTo(m, { tenantId, driverScope: client.driverScope })) client.stream.push(m);
    }
    await this.sockets?.catchUp();
  }

  /** A tenant's events on a channel after a position, for a viewer (driverScope), from the outbox. */
  replay(tenantId: string, after: number, driverScope: string | null | undefined, since: Date, channel: Channel): Promise<RealtimeMessage[]> {
    return this.deps.db.tenant(tenantId, (tx) => missedEvents(tx, { tenantId, after, since, driverScope, limit: this.opts.replayLimit }, channel));
  }

  attachSockets(side: SocketSide): void {
    this.sockets = side;
  }

  /** Re-checks the credentials of this process's sockets now (otherwise every heartbeat interval). */
  async recheckSockets(): Promise<void> {
    await this.sockets?.recheck();
  }

  /**
   * Ends every stream of this process (shutdown): each SSE client is told to reconnect soon (a `retry:`
   * and a final `connection_closed` event) and resumes elsewhere from its Last-Event-ID; each socket's
   * transport is closed, so that its client reconnects by itself and resumes from its offset.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    for (const client of [...this.sseById.values()]) {
      client.stream.close('shutdown', {
        name: 'connection_closed',
        data: { reason: 'SHUTDOWN', message: 'This server is shutting down: reconnect (with Last-Event-ID) to resume' },
        retryMs: this.opts.shutdownRetryMs,
      });
    }
    await this.sockets?.closeAll();
  }

  counted(kind: ConnectionKind, delta: 1 | -1, reason?: string): void {
    this.gauge.inc({ kind }, delta);
    if (delta < 0) this.closedCounter.inc({ kind, reason: reason ?? 'client' });
  }

  /**
   * Registers a new connection against its tenant's cap and closes the oldest ones beyond it,
   * wherever they are. Should the registry be unreachable (Redis down), the connection is let in
   * rather than refused: the cap is a fairness limit, the stream is the product.
   */
  async admit(ref: ConnectionRef): Promise<void> {
    let evicted: string[];
    try {
      evicted = await this.registry.open(ref, this.opts.maxConnectionsPerTenant);
    } catch (err) {
      this.deps.log.warn({ err, kind: ref.kind }, 'connection registry unavailable; connection admitted without the cap');
      return;
    }
    for (const id of evicted) {
      if (id === ref.id) continue;
      if (ref.kind === 'socketio') this.sockets?.evict(ref.tenantId, id);
      else if (this.sseById.has(id)) this.closeSse(id, 'evicted');
      else {
        const instruction: CloseInstruction = { type: 'close', kind: ref.kind, tenantId: ref.tenantId, id };
        await this.deps.broadcast.publish(CONTROL_CHANNEL, JSON.stringify(instruction)).catch((err: unknown) => this.deps.log.warn({ err }, 'could not publish a close instruction'));
      }
    }
  }

  release(ref: ConnectionRef): void {
    this.registry.close(ref).catch((err: unknown) => this.deps.log.warn({ err }, 'could not unregister a realtime connection'));
  }

  /** Opens an SSE stream on a response whose headers are written: replay (Last-Event-ID), then live events and heartbeats. */
  async openSse(input: OpenSseInput): Promise<void> {
    const { ctx } = input;
    const ref: ConnectionRef = { kind: 'sse', tenantId: ctx.tenantId, id: `sse_${randomUUID()}` };
    const client: SseClient = {
      ref,
      ctx,
      driverScope: input.driverScope,
      apiKey: input.apiKey,
      stream: new SseStream(input.sink, this.opts, input.lastEventId ?? 0, (reason) => this.dropSse(client, reason)),
    };
    input.sink.on('close', () => client.stream.gone());
    // Listening before reading the replay: an event dispatched meanwhile is either in the replay or
    // held here until it is sent (or both: sent once). Live events are held until the stream is set up.
    this.sseById.set(ref.id, client);
    const tenantSet = this.sseByTenant.get(ctx.tenantId) ?? new Set<SseClient>();
    this.sseByTenant.set(ctx.tenantId, tenantSet);
    tenantSet.add(client);
    this.counted('sse', 1);
    client.stream.beginReplay();
    if (this.stopped) return client.stream.close('shutdown');
    // Counted against the cap before the client sees its stream start.
    await this.admit(ref);
    client.stream.open(this.opts.sseRetryMs);
    let missed: RealtimeMessage[] = [];
    let position: number | undefined;
    try {
      ({ missed, position } = await this.deps.db.tenant(ctx.tenantId, async (tx) => ({
        missed:
          input.lastEventId === undefined
            ? []
            : await missedEvents(
                tx,
                {
                  tenantId: ctx.tenantId,
                  after: input.lastEventId,
                  since: new Date(this.deps.clock.now().getTime() - this.opts.replayWindowMs),
                  driverScope: input.driverScope,
                  limit: this.opts.replayLimit,
                },
                SSE_CHANNEL,
              ),
        position: await streamPosition(tx, ctx.tenantId),
      })));
    } catch (err) {
      this.deps.log.warn({ err }, 'could not read missed events for an SSE replay');
    }
    client.stream.endReplay(missed);
    client.stream.heartbeat(this.deps.clock.now(), position);
    if (input.oneShot) return client.stream.close('shutdown');
    if (client.stream.isClosed) return;
    client.heartbeat = setInterval(() => void this.beat(client), this.opts.heartbeatMs);
  }

  /** Open SSE streams of this process (tests and metrics). */
  get sseCount(): number {
    return this.sseById.size;
  }

  private async beat(client: SseClient): Promise<void> {
    client.stream.heartbeat(this.deps.clock.now());
    if (client.stream.isClosed) return;
    if (!(await stillAuthorized(this.deps, client.ctx, client.apiKey))) {
      client.stream.close('revoked', { name: 'connection_closed', data: { reason: 'UNAUTHORIZED', message: 'The credentials of this stream were revoked or the tenant is no longer active' } });
    }
  }

  private closeSse(id: string, reason: SseCloseReason): void {
    const client = this.sseById.get(id);
    if (!client) return;
    if (reason === 'evicted') {
      client.stream.close('evicted', {
        name: 'connection_closed',
        data: { reason: 'CONNECTION_LIMIT', message: `More than ${this.opts.maxConnectionsPerTenant} SSE connections for this tenant: the oldest is closed` },
        retryMs: this.opts.evictedRetryMs,
      });
    } else client.stream.close(reason);
  }

  private dropSse(client: SseClient, reason: SseCloseReason): void {
    if (client.heartbeat) clearInterval(client.heartbeat);
    if (!this.sseById.delete(client.ref.id)) return;
    const set = this.sseByTenant.get(client.ref.tenantId);
    set?.delete(client);
    if (set?.size === 0) this.sseByTenant.delete(client.ref.tenantId);
    this.counted('sse', -1, reason);
    // An evicted stream was already taken out of the registry by the one that evicted it.
    if (reason !== 'evicted') this.release(client.ref);
  }

  private onEvent(raw: string): void {
    const event = parseStreamEvent(raw);
    if (!event) return;
    const message = sseMessage(event);
    if (message) {
      for (const client of this.sseByTenant.get(event.tenantId) ?? []) {
        if (visibleTo(message, { tenantId: client.ctx.tenantId, driverScope: client.driverScope })) client.stream.push(message);
      }
    }
    this.sockets?.deliver(event);
  }

  private onControl(raw: string): void {
    let m: Partial<CloseInstruction>;
    try {
      m = JSON.parse(raw) as Partial<CloseInstruction>;
    } catch {
      return;
    }
    if (m.type === 'close' && m.kind === 'sse' && typeof m.id === 'string') this.closeSse(m.id, 'evicted');
  }

  private localRefs(): ConnectionRef[] {
    return [...[...this.sseById.values()].map((c) => c.ref), ...(this.sockets?.localRefs() ?? [])];
  }
}
