import { describe, expect, it } from 'vitest';
import type { RealtimeMessage } from './realtime.events.js';
import { sseFrame, SseStream, type SseCloseReason, type SseSink } from './sse-stream.js';

class FakeSink implements SseSink {
  chunks: string[] = [];
  writableLength = 0;
  ended = false;
  destroyed = false;
  write(chunk: string): boolean {
    this.chunks.push(chunk);
    return true;
  }
  end(): void {
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  get text(): string {
    return this.chunks.join('');
  }
  ids(): number[] {
    return [...this.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  }
}

const msg = (seq: number, name = 'alert'): RealtimeMessage => ({ seq, tenantId: 'tnt_a', driverId: null, name, data: { id: `alt_${seq}` } });
const OPTS = { maxBufferedBytes: 1000, maxPending: 5 };

function stream(floor = 0) {
  const sink = new FakeSink();
  const closed: SseCloseReason[] = [];
  const s = new SseStream(sink, OPTS, floor, (r) => closed.push(r));
  return { sink, s, closed };
}

describe('SSE stream', () => {
  it('writes standard frames: id, event, one data line of JSON, a blank line', () => {
    expect(sseFrame('alert', { id: 'alt_1', message: 'two\nlines' }, 7)).toBe('id: 7\nevent: alert\ndata: {"id":"alt_1","message":"two\\nlines"}\n\n');
    expect(sseFrame('heartbeat', { timestamp: '2026-03-02T14:00:00.000Z' })).toBe('event: heartbeat\ndata: {"timestamp":"2026-03-02T14:00:00.000Z"}\n\n');
  });

  it('starts with a retry line and a comment, and sends heartbeats without ids', () => {
    const { sink, s } = stream();
    s.open(5000);
    s.heartbeat(new Date('2026-03-02T14:00:00Z'));
    expect(sink.text).toBe('retry: 5000\n: connected\n\nevent: heartbeat\ndata: {"timestamp":"2026-03-02T14:00:00.000Z"}\n\n');
  });

  it('holds live events during a replay, then sends the replay and the held ones in order, each position once', () => {
    const { sink, s } = stream(10);
    s.beginReplay();
    s.push(msg(13));
    s.push(msg(12)); // also in the replay
    s.push(msg(9)); // before the client's Last-Event-ID
    expect(sink.text).toBe('');
    s.endReplay([msg(11), msg(12)]);
    s.push(msg(13)); // republished
    s.push(msg(14));
    expect(sink.ids()).toEqual([11, 12, 13, 14]);
  });

  it('drops a client that does not read once what waits for it passes the limit, without writing more', () => {
    const { sink, s, closed } = stream();
    s.push(msg(1));
    sink.writableLength = 1001;
    s.push(msg(2));
    s.push(msg(3));
    expect(sink.ids()).toEqual([1]);
    expect(sink.destroyed).toBe(true);
    expect(closed).toEqual(['slow']);
    expect(s.isClosed).toBe(true);
  });

  it('drops a stream whose replay holds back more live events than allowed', () => {
    const { sink, s, closed } = stream();
    s.beginReplay();
    for (let i = 1; i <= 6; i++) s.push(msg(i));
    expect(closed).toEqual(['slow']);
    expect(sink.destroyed).toBe(true);
  });

  it('closes with a final event and a retry delay when told why, once; a client that left is only forgotten', () => {
    const { sink, s, closed } = stream();
    s.close('evicted', { name: 'connection_closed', data: { reason: 'CONNECTION_LIMIT' }, retryMs: 60000 });
    s.close('shutdown');
    expect(sink.text).toBe('retry: 60000\nevent: connection_closed\ndata: {"reason":"CONNECTION_LIMIT"}\n\n');
    expect(sink.ended).toBe(true);
    expect(closed).toEqual(['evicted']);
    s.push(msg(1));
    expect(sink.ids()).toEqual([]);

    const other = stream();
    other.s.gone();
    other.s.gone();
    expect(other.closed).toEqual(['client']);
    expect(other.sink.ended || other.sink.destroyed).toBe(false);
  });
});
