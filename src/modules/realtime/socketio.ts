import { STATUS_CODES, type Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import type { Deps } from '../../deps.js';
import { DomainError, HTTP_STATUS } from '../../lib/errors.js';
import type { TenantContext } from '../../plugins/context.js';
import type { StreamEvent } from '../../workers/events.js';
import { alertsService, driverScope } from '../alerts/alerts.service.js';
import type { ConnectionRef } from './connection-registry.js';
import { authenticateCredential, currentContext, stillAuthorized } from './realtime.auth.js';
import { socketMessage } from './realtime.events.js';
import type { RealtimeHub, SocketSide } from './realtime.hub.js';

/** What a socket carries once its handshake is authenticated (kept in this process; never sent over the adapter). */
interface SocketAuth {
  ctx: TenantContext;
  apiKey: string | undefined;
  driverScope: string | null | undefined;
}

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
 */
export function attachSocketServer(httpServer: HttpServer, deps: Deps, hub: RealtimeHub, adapter?: Parameters<Server['adapter']>[0]): Server {
  const io = new Server(httpServer, {
    path: '/socket.io',
    serveClient: false,
    // Clients send small acknowledgements only.
    maxHttpBufferSize: 64 * 1024,
    ...(adapter ? { adapter } : {}),
  });
  const auths = new Map<string, SocketAuth>();
  const closing = new Map<string, string>();
  const alerts = alertsService(deps);

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
        if (!(err instanceof DomainError)) deps.log.error({ err }, 'socket handshake failed');
        const body = errorPayload(err);
        next(Object.assign(new Error(body.message), { data: body }));
      },
    );
  });

  io.on('connection', (socket) => {
    const auth = auths.get(socket.id);
    if (!auth) return void socket.disconnect(true);
    const ref: ConnectionRef = { kind: 'socketio', tenantId: auth.ctx.tenantId, id: socket.id };
    if (auth.driverScope === undefined) void socket.join(tenantRoom(auth.ctx.tenantId));
    else if (auth.driverScope !== null) void socket.join(driverRoom(auth.driverScope));
    hub.counted('socketio', 1);
    socket.on('disconnect', (reason) => {
      auths.delete(socket.id);
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
      socket.emit('alert:acknowledge:error', payload);
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
      socket.emit('alert:acknowledge:success', payload);
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
        socket.emit('connection:closed', { reason: 'UNAUTHORIZED', message: 'The credentials of this connection were revoked or the tenant is no longer active' });
        closeLocal(socket, 'revoked');
      }),
    );
  }
  const recheckTimer = setInterval(() => void recheck().catch((err: unknown) => deps.log.warn({ err }, 'socket credential re-check failed')), hub.opts.heartbeatMs);
  recheckTimer.unref();

  const side: SocketSide = {
    deliver(event: StreamEvent) {
      const m = socketMessage(event);
      if (!m) return;
      const rooms = [tenantRoom(m.tenantId), ...(m.driverId ? [driverRoom(m.driverId)] : [])];
      // A socket that does not read is dropped rather than queued for without bound.
      for (const room of rooms) {
        for (const id of io.of('/').adapter.rooms.get(room) ?? []) {
          const s = io.of('/').sockets.get(id);
          const queued = (s?.conn as unknown as { writeBuffer?: unknown[] } | undefined)?.writeBuffer?.length ?? 0;
          if (s && queued > hub.opts.maxPending) closeLocal(s, 'slow');
        }
      }
      io.local.to(rooms).emit(m.name, m.data);
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
    closeAll() {
      clearInterval(recheckTimer);
      for (const socket of io.of('/').sockets.values()) closeLocal(socket, 'shutdown');
    },
    recheck,
    localRefs() {
      return [...auths.entries()].map(([id, a]) => ({ kind: 'socketio' as const, tenantId: a.ctx.tenantId, id }));
    },
  };
  hub.attachSockets(side);
  return io;
}
