/**
 * One Socket.IO connection per signed-in page (the spec's /socket.io, websocket transport), authenticated
 * with the in-memory access token — read again at every (re)connection, so a refreshed token is used.
 * Components subscribe to the spec's events (alert:new, alert:updated, alert:resolved, route:updated).
 */
import { io, type Socket } from 'socket.io-client';
import { useEffect, useState } from 'react';
import { getAccessToken, refreshAccessToken } from './client';

let socket: Socket | null = null;
const statusListeners = new Set<(connected: boolean) => void>();

function connect(): Socket {
  if (socket) return socket;
  const s = io({
    path: '/socket.io',
    transports: ['websocket'],
    auth: (cb) => cb({ token: getAccessToken() ?? '' }),
    reconnectionDelayMax: 10_000,
  });
  s.on('connect', () => statusListeners.forEach((l) => l(true)));
  s.on('disconnect', () => statusListeners.forEach((l) => l(false)));
  // An expired access token is refused at the handshake: refresh it, the next attempt uses the new one.
  s.on('connect_error', () => void refreshAccessToken());
  socket = s;
  return s;
}

/** Closes the connection (sign-out). */
export function disconnectRealtime(): void {
  socket?.disconnect();
  socket = null;
}

export type RealtimeEvent = 'alert:new' | 'alert:updated' | 'alert:resolved' | 'route:updated';

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
