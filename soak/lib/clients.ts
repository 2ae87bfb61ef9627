/**
 * Realtime clients as integrators write them, with the libraries they use and their default options:
 * the `eventsource` package for SSE (it reconnects by itself, sending Last-Event-ID) and
 * `socket.io-client` (it reconnects by itself, sending its session id and offset). Each records every
 * alert event it receives by stream position, so that what it missed can be counted.
 */
import { EventSource } from 'eventsource';
import { io, type Socket } from 'socket.io-client';

/** An alert event as a client saw it. */
export interface Seen {
  /** The stream position (SSE id, Socket.IO offset). */
  seq: number;
  name: string;
  alertId: string;
  at: number;
}

abstract class Watcher {
  readonly seen: Seen[] = [];
  /** The stream position it was given when it first connected: every alert event after it is for it. */
  start: number | undefined;
  /** Times it (re)opened its connection: 1 + reconnections. */
  opens = 0;
  errors = 0;
  private waiters: Array<{ test: () => boolean; resolve: () => void }> = [];

  constructor(readonly label: string) {}

  /** The stream positions received (each once). */
  positions(): Set<number> {
    return new Set(this.seen.map((s) => s.seq));
  }

  /** Resolves when `test` holds (checked after each event and open), or rejects after `timeoutMs`. */
  until(test: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const w = { test, resolve: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`${this.label}: ${what} not within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  protected record(s: Seen): void {
    this.seen.push(s);
    this.check();
  }

  /** Re-evaluates the waits (after anything that may satisfy them). */
  protected check(): void {
    for (const w of this.waiters.filter((x) => x.test())) {
      this.waiters = this.waiters.filter((x) => x !== w);
      w.resolve();
    }
  }

  abstract close(): void;
}

export class SseWatcher extends Watcher {
  private readonly source: EventSource;

  constructor(label: string, base: string, apiKey: string) {
    super(label);
    this.source = new EventSource(`${base}/api/v1/sse/alerts?apiKey=${encodeURIComponent(apiKey)}`);
    this.source.addEventListener('open', () => {
      this.opens++;
      this.check();
    });
    // Also when the server ends the stream: the client then reconnects by itself.
    this.source.addEventListener('error', () => {
      this.errors++;
      this.check();
    });
    // The opening heartbeat carries the stream position.
    this.source.addEventListener('heartbeat', (e: MessageEvent<string>) => {
      if (this.start === undefined && e.lastEventId !== '') this.start = Number(e.lastEventId);
      this.check();
    });
    for (const name of ['alert', 'alert_updated', 'alert_resolved']) {
      this.source.addEventListener(name, (e: MessageEvent<string>) => {
        const data = JSON.parse(e.data) as { id: string };
        this.record({ seq: Number(e.lastEventId), name, alertId: data.id, at: Date.now() });
      });
    }
  }

  /** CONNECTING 0, OPEN 1, CLOSED 2 (a closed EventSource never reconnects). */
  get readyState(): number {
    return this.source.readyState;
  }

  close(): void {
    this.source.close();
  }
}

export class SocketWatcher extends Watcher {
  readonly socket: Socket;
  /** Why each disconnection happened, in order. */
  readonly disconnects: string[] = [];

  constructor(label: string, base: string, token: string) {
    super(label);
    // Default options: polling first, then the upgrade; reconnection on.
    this.socket = io(base, { auth: { token } });
    this.socket.on('connection:ready', (ready: { position: number }) => {
      this.start ??= ready.position;
      this.opens++;
      this.check();
    });
    this.socket.on('connect_error', () => this.errors++);
    this.socket.on('disconnect', (reason) => {
      this.disconnects.push(reason);
      this.check();
    });
    for (const name of ['alert:new', 'alert:updated', 'alert:resolved']) {
      this.socket.on(name, (data: { id: string }, offset: string) => this.record({ seq: Number(offset), name, alertId: data.id, at: Date.now() }));
    }
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  close(): void {
    this.socket.close();
  }
}
