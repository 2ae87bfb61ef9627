import type { RealtimeMessage } from './realtime.events.js';

/** The part of a writable (the HTTP response) an SSE stream uses. */
export interface SseSink {
  write(chunk: string): boolean;
  /** Bytes accepted by write() but not yet handed to the socket: what a slow client makes grow. */
  readonly writableLength: number;
  end(): void;
  destroy(): void;
}

export interface SseStreamOptions {
  /** Past this many bytes waiting for the client, the stream is dropped (the client reconnects and replays). */
  maxBufferedBytes: number;
  /** Live events held while a replay runs; past this the stream is dropped. */
  maxPending: number;
}

export type SseCloseReason = 'client' | 'evicted' | 'slow' | 'revoked' | 'shutdown';

/** One SSE frame (https://html.spec.whatwg.org/multipage/server-sent-events.html). JSON has no newlines. */
export function sseFrame(name: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Each message's frame, made once: a live event goes to every stream of its tenant (up to the per-tenant
 * cap), and its data need not be serialized again for each of them.
 */
const frames = new WeakMap<RealtimeMessage, string>();
function frameOf(m: RealtimeMessage): string {
  let frame = frames.get(m);
  if (frame === undefined) {
    frame = sseFrame(m.name, m.data, m.seq);
    frames.set(m, frame);
  }
  return frame;
}

/** How many stream positions a stream remembers having sent, to drop repeats (replay seam, republished events). */
const REMEMBERED = 2048;

/**
 * One client's event stream: frames with ids, heartbeats, the Last-Event-ID seam, and the bound on
 * memory. While the missed events are being read back (replay), live events are held; then the replay
 * is sent, then what was held, each stream position once. A client that does not read is dropped once
 * what waits for it passes the limit, rather than being buffered without bound.
 */
export class SseStream {
  private pending: RealtimeMessage[] | null = null;
  private readonly sent = new Set<number>();
  private closed = false;
  private highest = 0;

  constructor(
    private readonly sink: SseSink,
    private readonly opts: SseStreamOptions,
    /** Positions at or below this are ones the client already has (its Last-Event-ID). */
    private floor: number,
    private readonly onClose: (reason: SseCloseReason) => void,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** The stream position the client has reached: its Last-Event-ID, or the highest one sent since. */
  get position(): number {
    return Math.max(this.floor, this.highest);
  }

  /** The first bytes: the reconnection delay and a comment, so that proxies and clients see the stream start. */
  open(retryMs: number): void {
    this.write(`retry: ${retryMs}\n: connected\n\n`);
  }

  /** Live events are held from now until `endReplay`. */
  beginReplay(): void {
    this.pending = [];
  }

  /** Sends the replayed events, then the live ones held meanwhile, without repeats; then goes live. */
  endReplay(replayed: RealtimeMessage[]): void {
    const held = this.pending ?? [];
    this.pending = null;
    for (const m of replayed) this.send(m);
    for (const m of held.sort((a, b) => a.seq - b.seq)) this.send(m);
  }

  /** A live event (already filtered for this client). */
  push(m: RealtimeMessage): void {
    if (this.closed) return;
    if (this.pending) {
      this.pending.push(m);
      if (this.pending.length > this.opts.maxPending) this.close('slow');
      return;
    }
    this.send(m);
  }

  /**
   * A heartbeat. The first one, sent when the stream opens, carries the stream position (`id:`), so a
   * client that receives no event before it is disconnected still resumes from there (Last-Event-ID).
   */
  heartbeat(at: Date, position?: number): void {
    if (position !== undefined) this.highest = Math.max(this.highest, position);
    this.write(sseFrame('heartbeat', { timestamp: at.toISOString() }, position === undefined ? undefined : this.position));
  }

  /** Ends the stream from our side; a final event tells the client why when there is one to tell. */
  close(reason: SseCloseReason, notice?: { name: string; data: unknown; retryMs?: number }): void {
    if (this.closed) return;
    this.closed = true;
    if (reason === 'slow' || reason === 'client') {
      // A client that does not read would not read the notice either; one that left cannot.
      this.sink.destroy();
    } else {
      if (notice) this.sink.write(`${notice.retryMs === undefined ? '' : `retry: ${notice.retryMs}\n`}${sseFrame(notice.name, notice.data)}`);
      this.sink.end();
    }
    this.onClose(reason);
  }

  /** The client went away (the response closed under us). */
  gone(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose('client');
  }

  private send(m: RealtimeMessage): void {
    if (m.seq <= this.floor || this.sent.has(m.seq)) return;
    this.sent.add(m.seq);
    if (this.sent.size > REMEMBERED) this.sent.delete(this.sent.values().next().value!);
    if (m.seq > this.highest) this.highest = m.seq;
    this.write(frameOf(m));
  }

  private write(text: string): void {
    if (this.closed) return;
    if (this.sink.writableLength > this.opts.maxBufferedBytes) {
      this.close('slow');
      return;
    }
    this.sink.write(text);
  }
}
