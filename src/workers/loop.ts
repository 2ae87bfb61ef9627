import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/time.js';
import type { Worker } from '../lib/worker.js';

export interface LoopOptions {
  /** The longest wait between passes when nothing wakes the loop. */
  idleMs: number;
  clock: Clock;
  log: FastifyBaseLogger;
}

/**
 * Runs a worker until stopped: a pass, then at once another while there is work (draining a backlog),
 * otherwise a wait of `idleMs` that `wake()` cuts short. A failed pass is logged and retried after a
 * growing pause (up to a minute), so an unreachable database is not hammered.
 */
export class WorkerLoop {
  private running = false;
  private timer: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  private pending = false;
  private done: Promise<void> = Promise.resolve();
  private stopping = new AbortController();

  constructor(
    readonly worker: Worker,
    private readonly opts: LoopOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = new AbortController();
    this.done = this.run();
  }

  /** Something became due (a NOTIFY, an event in this process): run a pass now. */
  wake(): void {
    this.pending = true;
    this.wakeUp?.();
  }

  /** Stops after the pass under way, which is told to wind down; resolves when it has ended. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    this.wakeUp?.();
    await this.done;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      this.pending = false;
      let did = 0;
      try {
        did = await this.worker.runOnce(this.opts.clock.now(), this.stopping.signal);
        failures = 0;
      } catch (err) {
        failures++;
        this.opts.log.error({ err, worker: this.worker.name }, 'background pass failed');
      }
      if (!this.running) break;
      if (did > 0 && failures === 0) continue;
      const wait = failures > 0 ? Math.min(60_000, 1_000 * 2 ** Math.min(failures - 1, 6)) : this.opts.idleMs;
      if (this.pending && failures === 0) continue;
      await new Promise<void>((resolve) => {
        this.wakeUp = resolve;
        this.timer = setTimeout(resolve, wait);
      });
      clearTimeout(this.timer);
      this.wakeUp = undefined;
    }
  }
}
