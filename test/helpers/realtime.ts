import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connectSocket, type Socket } from 'socket.io-client';
import type { App } from '../../src/app.js';
import type { AlertCondition } from '../../src/domain/alerts/types.js';
import { raiseAlert, resolveAlert, type AlertRecord } from '../../src/modules/alerts/alerts.repository.js';

/** One parsed SSE frame (comments and retry-only blocks are kept as frames too, named by what they hold). */
export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
  comment?: string;
}

/** How long a test waits for something that should come before failing (a guard, not a sleep). */
export const WAIT_MS = 5_000;

/** Listens on a free loopback port and answers the base URL. */
export async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/**
 * An SSE client over node:http: frames are parsed as they arrive and handed out in order by next().
 * `closed` resolves when the server ends the stream.
 */
export class SseClient {
  readonly frames: SseFrame[] = [];
  private readonly waiters: Array<{ resolve: (f: SseFrame) => void; reject: (e: Error) => void }> = [];
  private buffer = '';
  private ended = false;
  readonly closed: Promise<void>;
  private markClosed!: () => void;
  private cursor = 0;

  private constructor(
    readonly status: number,
    readonly headers: http.IncomingHttpHeaders,
    readonly body: string,
    private readonly req: http.ClientRequest,
    res: http.IncomingMessage,
  ) {
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => this.feed(chunk));
    const end = () => {
      if (this.ended) return;
      this.ended = true;
      this.markClosed();
      for (const w of this.waiters.splice(0)) w.reject(new Error('stream ended'));
    };
    res.on('end', end);
    res.on('close', end);
    res.on('error', end);
  }

  static async open(base: string, path: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = http.get(`${base}${path}`, { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        if (res.statusCode !== 200) {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve(new SseClient(res.statusCode!, res.headers, body, req, res)));
          return;
        }
        resolve(new SseClient(200, res.headers, '', req, res));
      });
      req.on('error', reject);
    });
  }

  /** The next frame that carries an event (comments and bare retry lines skipped), in arrival order. */
  async next(timeoutMs = WAIT_MS): Promise<SseFrame> {
    for (;;) {
      const frame = await this.nextRaw(timeoutMs);
      if (frame.event !== undefined || frame.data !== undefined) return frame;
    }
  }

  /** The next event frame of this name, skipping others (heartbeats, for instance). */
  async nextNamed(name: string, timeoutMs = WAIT_MS): Promise<SseFrame> {
    for (;;) {
      const f = await this.next(timeoutMs);
      if (f.event === name) return f;
    }
  }

  /** The next event frame that is not a heartbeat. */
  async nextEvent(timeoutMs = WAIT_MS): Promise<SseFrame> {
    for (;;) {
      const f = await this.next(timeoutMs);
      if (f.event !== 'heartbeat') return f;
    }
  }

  private nextRaw(timeoutMs: number): Promise<SseFrame> {
    if (this.cursor < this.frames.length) return Promise.resolve(this.frames[this.cursor++]!);
    if (this.ended) return Promise.reject(new Error('stream ended'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const i = this.waiters.findIndex((w) => w.resolve === done);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new Error(`no SSE frame within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (f: SseFrame) => {
        clearTimeout(timer);
        resolve(f);
      };
      this.waiters.push({
        resolve: done,
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  close(): void {
    this.req.destroy();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  private feed(chunk: string): void {
    this.buffer += chunk;
    let at: number;
    while ((at = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      const frame: SseFrame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) frame.comment = line.slice(1).trim();
        else {
          const i = line.indexOf(':');
          const field = i < 0 ? line : line.slice(0, i);
          const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
          if (field === 'id') frame.id = value;
          else if (field === 'event') frame.event = value;
          else if (field === 'data') frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
          else if (field === 'retry') frame.retry = Number(value);
        }
      }
      this.frames.push(frame);
      const w = this.waiters.shift();
      if (w) {
        this.cursor++;
        w.resolve(frame);
      }
    }
  }
}

export const json = <T = Record<string, unknown>>(f: SseFrame): T => JSON.parse(f.data ?? 'null') as T;

/** A Socket.IO client that does not reconnect by itself, over WebSocket as the spec says. */
export function socketClient(base: string, token: string | undefined): Socket {
  return connectSocket(base, { path: '/socket.io', transports: ['websocket'], auth: token === undefined ? {} : { token }, reconnection: false, forceNew: true });
}

/**
 * Resolves once connected and settled: the server's `connection:ready` (the socket is in its rooms, and has
 * been sent what it missed, if anything) has arrived; rejects with the connect_error. Call it before any
 * await once the socket is created, so that `connection:ready` cannot pass unseen.
 */
export function connected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once('connection:ready', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** The next `event` on the socket (rejects after WAIT_MS). */
export function nextOn<T = Record<string, unknown>>(socket: Socket, event: string, timeoutMs = WAIT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, on);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    };
    socket.once(event, on);
  });
}

/** Records every event a socket receives, in order. */
export function recordSocket(socket: Socket): Array<{ event: string; payload: Record<string, unknown> }> {
  const seen: Array<{ event: string; payload: Record<string, unknown> }> = [];
  socket.onAny((event: string, payload: Record<string, unknown>) => seen.push({ event, payload }));
  return seen;
}

export const condition = (type: AlertCondition['type'] = 'LOW_FUEL', priority: AlertCondition['priority'] = 'MEDIUM'): AlertCondition => ({
  type,
  priority,
  title: `${type} test`,
  message: `A ${type} alert raised by a realtime test`,
  metadata: { source: 'realtime test' },
});

/** An alert raised the way monitoring raises one (with its alert.created outbox event). */
export async function raiseTestAlert(app: App, tenantId: string, opts: { driverId?: string | null; routeId?: string | null; type?: AlertCondition['type'] } = {}): Promise<AlertRecord> {
  return app.deps.db.tenant(tenantId, (tx) =>
    raiseAlert(tx, tenantId, { condition: condition(opts.type), driverId: opts.driverId ?? null, routeId: opts.routeId ?? null, vehicleId: null }, app.deps.clock.now()),
  );
}

/** Resolves an alert the way monitoring does when its condition clears (alert.resolved). */
export async function resolveTestAlert(app: App, tenantId: string, alertId: string): Promise<AlertRecord> {
  return app.deps.db.tenant(tenantId, (tx) => resolveAlert(tx, tenantId, alertId, 'system', 'cleared in a test', app.deps.clock.now()));
}

/** One pass of the outbox dispatcher: committed events go out to the realtime channels. */
export async function dispatch(app: App): Promise<number> {
  return app.workers.get('outbox').worker.runOnce(app.deps.clock.now());
}
