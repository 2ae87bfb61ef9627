import { STATUS_CODES, type Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { Adapter } from 'socket.io-adapter';
import type { Deps } from '../../deps.js';
import { DomainError, HTTP_STATUS } from '../../lib/errors.js';
import type { TenantContext } from '../../plugins/context.js';
import type { StreamEvent } from '../../db/outbox.js';
import { alertsService, driverScope } from '../alerts/alerts.service.js';
import type { ConnectionRef } from './connection-registry.js';
import { authenticateCredential, currentContext, stillAuthorized } from './realtime.auth.js';
import { socketMessage, SOCKET_CHANNEL, visibleTo, type RealtimeMessage } from './realtime.events.js';
import type { RealtimeHub, SocketSide } from './realtime.hub.js';
import { streamPosition } from './realtime.repository.js';

/** What a socket carries once its handshake is authenticated (kept in this process; never sent over the adapter). */
interface SocketAuth {
  ctx: TenantContext;
  apiKey: string | undefined;
  driverScope: string | null | undefined;
}

/** Where a socket is in the event stream: what it has, and what waits while its replay is read. */
interface SocketStream {
  /** The client's offset when it connected: it has everything up to here. */
  floor: number;
  /** The highest stream position sent since. */
  highest: number;
  /** Positions sent lately, to drop repeats (replay seam, catch-up, a republished event). */
  sent: Set<number>;
  /** Live events held while the replay is read (null once it is sent). */
  held: RealtimeMessage[] | null;
}

/** How long a shutdown waits for sockets to take their closing notice before it closes them regardless. */
const CLOSE_NOTICE_MS = 1_500;

/** How many stream positions a socket remembers having sent. */
const REMEMBERED = 2048;
const OFFSET = /^[0-9]{1,15}$/;

type ErrorPayload = { statusCode: number; error: string; message: string };

const ALERT_ID = /^alt_[0-9A-Za-z]{1,60}$/;
const MAX_ACK_MESSAGE = 2_000;

export const tenantRoom = (tenantId: string) => `tenant:${tenantId}`;
export const driverRoom = (driverId: string) => `driver:${driverId}`;

/** The spec's error body for a failure (a DomainError's status, or 500 for anything else). */
export function errorPayload(err: unknown): ErrorPayload {
  const statusCode = err instanceof DomainError ? HTTP_STATUS[err.code] : 500;
  const message = err instanceof DomainError ? err.message : 'Internal Server Error';
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/**
 * Socket.IO on the app's HTTP server at /socket.io. The handshake's `auth.token` (an API key or an
 * access token) decides the tenant; a connection that fails it gets a connect_error whose message and
 * `data` ({statusCode, error, message}) say why. Sockets join `tenant:<id>`, or for DRIVER users only
 * `driver:<driverId>`.
 *
 * Fan-out: every API instance receives every dispatched event from the broadcast and emits it to its
 * own sockets only (`io.local`); the Redis adapter (when REDIS_URL is set) carries what must cross
 * instances: closing a socket held elsewhere when the tenant's cap is exceeded.
 *
 * Resuming: each event carries its stream position as a last, string argument; Socket.IO clients (v4.6+)
 * keep the last one as their offset and send it back when they reconnect (Socket.IO's connection state
 * recovery handshake: `auth.pid` and `auth.offset`). A reconnecting socket is first sent, from the
 * outbox, what it missed after its offset (on whichever instance it reconnects to), then `connection:ready`
 * with the position it has reached; a new one gets `connection:ready` with the current position, so that
 * it has an offset even if no event reaches it before a disconnection.
 */
export function attachSocketServer(httpServer: HttpServer, deps: Deps, hub: RealtimeHub, adapter?: Parameters<Server['adapter']>[0]): Server {
  const io = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    // Clients send small acknowledgements only.
    maxHttpBufferSize: 64 * 1024,
    // The handshake's session id and offset are enabled by this; sessions are not kept in memory (the base
    // adapter keeps none): a reconnection is authenticated again and replayed from the outbox, here.
    connectionStateRecovery: { maxDisconnectionDuration: hub.opts.replayWindowMs, skipMiddlewares: false },
    // Polling clients are kept on their instance by load balancers that read this cookie (deploy/haproxy).
    cookie: { name: 'io', path: '/', httpOnly: true, sameSite: 'lax' },
    adapter: adapter ?? Adapter,
  });
  const auths = new Map<string, SocketAuth>();
  const streams = new Map<string, SocketStream>();
  const closing = new Map<string, string>();
  const alerts = alertsService(deps);

  /** Emits to one socket of this instance (never through the adapter: it is here). */
  const emitTo = (socketId: string, name: string, ...args: unknown[]) => io.local.to(socketId).emit(name, ...args);

  /** Sends a stream message to one socket, once, with its position as the offset. */
  function send(socketId: string, stream: SocketStream, m: RealtimeMessage): void {
    if (m.seq <= stream.floor || stream.sent.has(m.seq)) return;
    stream.sent.add(m.seq);
    if (stream.sent.size > REMEMBERED) stream.sent.delete(stream.sent.values().next().value!);
    if (m.seq > stream.highest) stream.highest = m.seq;
    emitTo(socketId, m.name, m.data, String(m.seq));
  }

  /** Live delivery, or held while the socket's replay is being read. */
  function push(socketId: string, stream: SocketStream, m: RealtimeMessage): void {
    if (stream.held) {
      stream.held.push(m);
      if (stream.held.length > hub.opts.maxPending) {
        const s = io.of('/').sockets.get(socketId);
        if (s) closeLocal(s, 'slow');
      }
      return;
    }
    send(socketId, stream, m);
  }

  /**
   * A new socket's first messages: what it missed after its offset (a reconnection), then what arrived
   * meanwhile, then `connection:ready` with the position it has reached.
   */
  async function resume(socket: Socket, auth: SocketAuth, stream: SocketStream): Promise<void> {
    const raw = (socket.handshake.auth as Record<string, unknown> | undefined)?.offset;
    const offset = typeof raw === 'string' && OFFSET.test(raw) ? Number(raw) : undefined;
    const tenantId = auth.ctx.tenantId;
    let missed: RealtimeMessage[] = [];
    let position = 0;
    try {
      const since = new Date(deps.clock.now().getTime() - hub.opts.replayWindowMs);
      [missed, position] = await Promise.all([
        offset === undefined ? Promise.resolve([]) : hub.replay(tenantId, offset, auth.driverScope, since, SOCKET_CHANNEL),
        deps.db.tenant(tenantId, (tx) => streamPosition(tx, tenantId)),
      ]);
    } catch (err) {
      deps.log.warn({ err }, 'could not read missed events for a socket');
    }
    if (!socket.connected) return;
    const held = stream.held ?? [];
    stream.held = null;
    for (const m of missed) send(socket.id, stream, m);
    for (const m of held.sort((a, b) => a.seq - b.seq)) send(socket.id, stream, m);
    stream.highest = Math.max(stream.highest, position);
    const reached = Math.max(stream.floor, stream.highest);
    emitTo(socket.id, 'connection:ready', { position: reached, resumedAfter: offset ?? null, replayed: missed.length }, String(reached));
  }

  io.use((socket, next) => {
    void (async () => {
      const raw = (socket.handshake.auth as Record<string, unknown> | undefined)?.token;
      const token = typeof raw === 'string' ? raw.replace(/^Bearer\s+/i, '') : raw;
      const ctx = await authenticateCredential(deps, token, 'alerts:read', { countRequest: true });
      const scope = await deps.db.tenant(ctx.tenantId, (tx) => driverScope(tx, ctx));
      auths.set(socket.id, { ctx, apiKey: ctx.via === 'apiKey' ? (token as string) : undefined, driverScope: scope });
      socket.data = { tenantId: ctx.tenantId, userId: ctx.userId, role: ctx.role, driverId: scope ?? null };
      // Counted against the cap before the client hears it is connected.
      await hub.admit({ kind: 'socketio', tenantId: ctx.tenantId, id: socket.id });
    })().then(
      () => next(),
      (err: unknown) => {
        const body = errorPayload(err);
        if (body.statusCode >= 500) {
          // Our failure, not the credentials' (the database away during a restart): not a refusal, after which
          // a Socket.IO client stays away for good, but a dropped connection, which it retries by itself.
          // (Closed first, the handshake's socket is then discarded without a connect_error.)
          deps.log.warn({ err: { message: err instanceof Error ? err.message : String(err), code: (err as { code?: unknown }).code } }, 'socket handshake failed: the connection is dropped for the client to retry');
          auths.delete(socket.id);
          socket.conn.close();
        }
        next(Object.assign(new Error(body.message), { data: body }));
      },
    );
  });

  io.on('connection', (socket) => {
    const auth = auths.get(socket.id);
    if (!auth) return void socket.disconnect(true);
    const ref: ConnectionRef = { kind: 'socketio', tenantId: auth.ctx.tenantId, id: socket.id };
    // Listening (in its room) before the replay is read, holding what arrives: nothing falls in between.
    const stream: SocketStream = { floor: 0, highest: 0, sent: new Set(), held: [] };
    const offset = (socket.handshake.auth as Record<string, unknown> | undefined)?.offset;
    if (typeof offset === 'string' && OFFSET.test(offset)) stream.floor = Number(offset);
    streams.set(socket.id, stream);
    if (auth.driverScope === undefined) void socket.join(tenantRoom(auth.ctx.tenantId));
    else if (auth.driverScope !== null) void socket.join(driverRoom(auth.driverScope));
    hub.counted('socketio', 1);
    void resume(socket, auth, stream);
    socket.on('disconnect', (reason) => {
      auths.delete(socket.id);
      streams.delete(socket.id);
      // Closed by us: marked with why; by another instance (through the adapter): the cap.
      const ours = closing.get(socket.id);
      closing.delete(socket.id);
      hub.counted('socketio', -1, ours ?? (reason === 'server namespace disconnect' ? 'evicted' : 'client'));
      hub.release(ref);
    });
    socket.on('alert:acknowledge', (body: unknown, ack?: unknown) => void acknowledge(socket, auth, body, typeof ack === 'function' ? (ack as (r: unknown) => void) : undefined));
  });

  /** Closes a socket of this instance, noting why (for the metrics). */
  function closeLocal(socket: Socket, reason: string): void {
    closing.set(socket.id, reason);
    socket.disconnect(true);
  }

  async function acknowledge(socket: Socket, auth: SocketAuth, body: unknown, ack?: (r: unknown) => void): Promise<void> {
    const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const alertId = typeof input.alertId === 'string' ? input.alertId : undefined;
    const fail = (err: unknown) => {
      const payload = { alertId: alertId ?? null, ...errorPayload(err) };
      emitTo(socket.id, 'alert:acknowledge:error', payload);
      ack?.({ ok: false, ...payload });
    };
    try {
      const problems: string[] = [];
      if (!alertId || !ALERT_ID.test(alertId)) problems.push('alertId must be an alert id (alt_…)');
      if (input.message !== undefined && input.message !== null && (typeof input.message !== 'string' || input.message.length > MAX_ACK_MESSAGE)) {
        problems.push(`message must be a string of at most ${MAX_ACK_MESSAGE} characters`);
      }
      if (problems.length > 0) {
        throw new DomainError('VALIDATION', `Validation failed: ${problems.join('; ')}`, problems.map((message) => ({ field: message.split(' ')[0]!, message })));
      }
      // The connection's credentials as they are now (revoked, suspended, role changed: refused).
      const ctx = await currentContext(deps, auth.ctx, auth.apiKey, 'alerts:write');
      const alert = await alerts.acknowledge(ctx, alertId!, typeof input.message === 'string' ? input.message : undefined);
      const payload = { alertId: alertId!, alert };
      emitTo(socket.id, 'alert:acknowledge:success', payload);
      ack?.({ ok: true, ...payload });
    } catch (err) {
      if (!(err instanceof DomainError)) deps.log.error({ err }, 'alert:acknowledge failed');
      fail(err);
    }
  }

  // Long-lived sockets are re-checked as SSE streams are at their heartbeat: a revoked key, a
  // deactivated user or a suspended tenant stops receiving.
  async function recheck(): Promise<void> {
    await Promise.all(
      [...auths].map(async ([id, auth]) => {
        if (await stillAuthorized(deps, auth.ctx, auth.apiKey)) return;
        const socket = io.of('/').sockets.get(id);
        if (!socket) return;
        emitTo(socket.id, 'connection:closed', { reason: 'UNAUTHORIZED', message: 'The credentials of this connection were revoked or the tenant is no longer active' });
        closeLocal(socket, 'revoked');
      }),
    );
  }
  const recheckTimer = setInterval(() => void recheck().catch((err: unknown) => deps.log.warn({ err }, 'socket credential re-check failed')), hub.opts.heartbeatMs);
  recheckTimer.unref();

  /** The local sockets that may see a message (its tenant's room, or its driver's). */
  function* audience(m: RealtimeMessage): Generator<[string, SocketStream]> {
    const rooms = [tenantRoom(m.tenantId), ...(m.driverId ? [driverRoom(m.driverId)] : [])];
    for (const room of rooms) {
      for (const id of io.of('/').adapter.rooms.get(room) ?? []) {
        const stream = streams.get(id);
        if (stream) yield [id, stream];
      }
    }
  }

  const side: SocketSide = {
    deliver(event: StreamEvent) {
      const m = socketMessage(event);
      if (!m) return;
      for (const [id, stream] of audience(m)) {
        // A socket that does not read is dropped rather than queued for without bound.
        const s = io.of('/').sockets.get(id);
        const queued = (s?.conn as unknown as { writeBuffer?: unknown[] } | undefined)?.writeBuffer?.length ?? 0;
        if (s && queued > hub.opts.maxPending) closeLocal(s, 'slow');
        else push(id, stream, m);
      }
    },
    evict(tenantId: string, socketId: string) {
      if (io.of('/').sockets.has(socketId)) closing.set(socketId, 'evicted');
      // Through the adapter: the socket may be held by another instance.
      io.to(socketId).emit('connection:closed', {
        reason: 'CONNECTION_LIMIT',
        message: `More than ${hub.opts.maxConnectionsPerTenant} Socket.IO connections for tenant ${tenantId}: the oldest is closed`,
      });
      io.in(socketId).disconnectSockets(true);
    },
    async closeAll() {
      clearInterval(recheckTimer);
      const closed: Promise<unknown>[] = [];
      for (const socket of io.of('/').sockets.values()) {
        closing.set(socket.id, 'shutdown');
        emitTo(socket.id, 'connection:closed', { reason: 'SHUTDOWN', message: 'This server is shutting down: the client reconnects and resumes from its offset' });
        // The transport, not the Socket.IO session: the client sees "transport close" and reconnects by
        // itself (a server-side disconnect would tell it not to). The notice is sent first (a polling
        // client fetches it with its next poll).
        closed.push(new Promise((resolve) => socket.conn.once('close', resolve)));
        socket.conn.close();
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(closed), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_NOTICE_MS)))]);
      clearTimeout(timer);
    },
    async catchUp() {
      const since = new Date(deps.clock.now().getTime() - hub.opts.replayWindowMs);
      const byTenant = new Map<string, [string, SocketStream][]>();
      for (const [id, stream] of streams) {
        const tenantId = auths.get(id)?.ctx.tenantId;
        if (tenantId && !stream.held) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), [id, stream]]);
      }
      for (const [tenantId, group] of byTenant) {
        const after = Math.min(...group.map(([, st]) => Math.max(st.floor, st.highest)));
        const missed = await hub.replay(tenantId, after, undefined, since, SOCKET_CHANNEL);
        for (const [id, stream] of group) {
          const driverScope = auths.get(id)?.driverScope;
          for (const m of missed) if (streams.has(id) && visibleTo(m, { tenantId, driverScope })) send(id, stream, m);
        }
      }
    },
    recheck,
    localRefs() {
      return [...auths.entries()].map(([id, a]) => ({ kind: 'socketio' as const, tenantId: a.ctx.tenantId, id }));
    },
  };
  hub.attachSockets(side);
  return io;
}
