/**
 * One Socket.IO connection per signed-in page (the spec's /socket.io, websocket transport), authenticated
 * with the in-memory access token — read again at every (re)connection, so a refreshed token is used.
 * Components subscribe to the spec's events (alert:new, alert:updated, alert:resolved, route:updated) and the
 * log's (log:edit_requested, log:edit_accepted, log:edit_rejected, log:certified).
 *
 * It stays connected: a dropped transport (a server restarting, a deploy) reconnects by itself and the
 * server replays what was missed from the offset Socket.IO keeps; a close decided by the server
 * (`connection:closed` then a disconnect) is reconnected too — at once after a shutdown or a slow
 * connection, after a minute when the tenant had too many connections — except after a revocation; a
 * refused handshake is retried after refreshing an expired token, or shortly after a server failure.
 */
import { io, type Socket } from 'socket.io-client';
import { useEffect, useState } from 'react';
import { getAccessToken, refreshAccessToken } from './client';

let socket: Socket | null = null;
/** After the tenant's connection cap closed this one: not at once, or two tabs would close each other in turn. */
const EVICTED_RETRY_MS = 60_000;
const statusListeners = new Set<(connected: boolean) => void>();

function connect(): Socket {
  if (socket) return socket;
  const s = io({
    path: '/socket.io',
    transports: ['websocket'],
    auth: (cb) => cb({ token: getAccessToken() ?? '' }),
    reconnectionDelayMax: 10_000,
  });
  let closedFor: string | undefined;
  s.on('connection:closed', (notice: { reason?: string }) => (closedFor = notice?.reason));
  s.on('connect', () => {
    closedFor = undefined;
    statusListeners.forEach((l) => l(true));
  });
  s.on('disconnect', (reason) => {
    statusListeners.forEach((l) => l(false));
    // Socket.IO reconnects by itself after anything but a server-side disconnect; this client does after those too.
    if (reason !== 'io server disconnect' || closedFor === 'UNAUTHORIZED') return;
    const delay = closedFor === 'CONNECTION_LIMIT' ? EVICTED_RETRY_MS : 1_000;
    setTimeout(() => socket === s && !s.connected && s.connect(), delay);
  });
  // A refused handshake ends Socket.IO's own retries (a dropped connection does not): an expired access
  // token (401) is refreshed and the connection made again; a failure of the server's is retried shortly;
  // a refusal for good (403: tenant suspended, role) is left alone.
  s.on('connect_error', (err: Error & { data?: { statusCode?: number } }) => {
    if (s.active) return;
    const status = err.data?.statusCode;
    if (status === 401) void refreshAccessToken().then((token) => token && socket === s && s.connect());
    else if (status === undefined || status >= 500) setTimeout(() => socket === s && !s.connected && s.connect(), 2_000);
  });
  socket = s;
  return s;
}

/** Closes the connection (sign-out). */
export function disconnectRealtime(): void {
  socket?.disconnect();
  socket = null;
}

export type RealtimeEvent =
  | 'alert:new'
  | 'alert:updated'
  | 'alert:resolved'
  | 'route:updated'
  // A driver's log: a correction requested, accepted or rejected, a day certified (docs/logs.md, Events).
  | 'log:edit_requested'
  | 'log:edit_accepted'
  | 'log:edit_rejected'
  | 'log:certified';

/** Calls `handler` for each `event` while the component is mounted. */
export function useRealtime<T = Record<string, unknown>>(event: RealtimeEvent, handler: (data: T) => void): void {
  useEffect(() => {
    const s = connect();
    const h = (data: T) => handler(data);
    s.on(event, h);
    return () => {
      s.off(event, h);
    };
  }, [event, handler]);
}

/** Whether the live connection is up (shown in the header). */
export function useRealtimeConnected(): boolean {
  const [connected, setConnected] = useState(() => socket?.connected ?? false);
  useEffect(() => {
    connect();
    statusListeners.add(setConnected);
    return () => {
      statusListeners.delete(setConnected);
    };
  }, []);
  return connected;
}

/** Sends the spec's client-to-server alert:acknowledge and resolves with the server's answer. */
export function acknowledgeOverSocket(alertId: string, message?: string): Promise<void> {
  const s = connect();
  return new Promise((resolve, reject) => {
    const done = (fn: () => void) => {
      s.off('alert:acknowledge:success', ok);
      s.off('alert:acknowledge:error', fail);
      fn();
    };
    const ok = (r: { alertId?: string }) => r.alertId === alertId && done(resolve);
    const fail = (e: { message?: string; alertId?: string }) => (!e.alertId || e.alertId === alertId) && done(() => reject(new Error(e.message ?? 'Could not acknowledge')));
    s.on('alert:acknowledge:success', ok);
    s.on('alert:acknowledge:error', fail);
    s.emit('alert:acknowledge', { alertId, message });
  });
}
