import { offlineGeocoder } from '../infra/geocoding/index.js';
import { OUTBOX_CHANNEL, type OutboxSink } from '../db/outbox.js';
import type { Deps } from '../deps.js';
import type { Worker } from '../lib/worker.js';
import { WorkerLoop } from './loop.js';
import { OutboxDispatcher } from './outbox-dispatcher.js';
import { workerMetrics } from './metrics.js';
import { evaluateAlerts, reconcile } from '../domain/alerts/index.js';
import { dbMonitoringSources } from '../modules/monitoring/monitoring.sources.db.js';
import type { MonitoringSources } from '../modules/monitoring/monitoring.sources.js';
import { DEFAULT_MONITORING_OPTIONS, MonitoringWorker } from '../modules/monitoring/monitoring.worker.js';
import { webhookDeliveryWorker } from '../modules/webhooks/webhooks.delivery.js';
import { DELIVERY_CHANNEL } from '../modules/webhooks/webhooks.queue.js';
import { WebhookFanout } from '../modules/webhooks/webhooks.sink.js';
import { IntegrationSyncWorker } from '../modules/integrations/integrations.worker.js';
import { INTEGRATIONS_CHANNEL } from '../modules/integrations/integrations.service.js';

/** How long an idle loop waits before looking again when nothing woke it. */
const IDLE_MS = 1_000;

/**
 * The process's background work (PROCESS_ROLES=worker): built with the app so that tests can run one
 * pass of any worker by hand (`app.workers.get('outbox').worker.runOnce(now)`), started by main.ts.
 */
export class Workers {
  private readonly loops = new Map<string, WorkerLoop>();
  private readonly stopListening: (() => Promise<void>)[] = [];
  private started = false;

  constructor(
    private readonly deps: Deps,
    /** Loops woken by a NOTIFY on a channel (besides their idle timer). */
    private readonly wakeOn: Map<string, string[]> = new Map(),
  ) {}

  add(worker: Worker, opts: { wakeOnChannel?: string } = {}): WorkerLoop {
    const loop = new WorkerLoop(worker, { idleMs: IDLE_MS, clock: this.deps.clock, log: this.deps.log });
    this.loops.set(worker.name, loop);
    if (opts.wakeOnChannel) this.wakeOn.set(opts.wakeOnChannel, [...(this.wakeOn.get(opts.wakeOnChannel) ?? []), worker.name]);
    return loop;
  }

  get(name: string): WorkerLoop {
    const loop = this.loops.get(name);
    if (!loop) throw new Error(`no worker named ${name}`);
    return loop;
  }

  /** Wakes a worker of this process if it runs here (a hint; the idle timer is the backstop). */
  wake(name: string): void {
    if (this.started) this.loops.get(name)?.wake();
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const [channel, names] of this.wakeOn) {
      this.stopListening.push(await this.deps.db.listen(channel, () => names.forEach((n) => this.loops.get(n)?.wake())));
    }
    for (const loop of this.loops.values()) loop.start();
  }

  /**
   * Stops every loop: passes under way are told to wind down and given `graceMs` to end; then each
   * worker gives back what it still holds (claimed routes, deliveries, events, syncs), so that the
   * other workers take it over at once rather than when its lease runs out.
   */
  async stop(opts: { graceMs?: number } = {}): Promise<void> {
    if (!this.started) return;
    this.started = false;
    for (const stop of this.stopListening.splice(0)) await stop();
    let timer: NodeJS.Timeout | undefined;
    const ended = Promise.all([...this.loops.values()].map((loop) => loop.stop()));
    const graceOver = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), opts.graceMs ?? 10_000)));
    if ((await Promise.race([ended, graceOver])) === 'timeout') this.deps.log.warn('background passes did not end in time; giving their work back');
    clearTimeout(timer);
    await Promise.all(
      [...this.loops.values()].map((loop) => loop.worker.release?.().catch((err: unknown) => this.deps.log.warn({ err, worker: loop.worker.name }, 'could not give back claimed work'))),
    );
  }
}

/** A worker whose passes are counted and timed. */
function observed(worker: Worker, after: (did: number, seconds: number) => void): Worker {
  return {
    name: worker.name,
    async runOnce(now: Date, stopping?: AbortSignal): Promise<number> {
      const started = performance.now();
      const did = await worker.runOnce(now, stopping);
      after(did, (performance.now() - started) / 1000);
      return did;
    },
    release: worker.release?.bind(worker),
  };
}

export interface WorkerPorts {
  /** Integration data for the alert rules (weather, diagnostics, ETAs, sync failures, ELD clocks). */
  monitoringSources: MonitoringSources;
}

/** Every background worker of the service. */
export function buildWorkers(deps: Deps, ports: WorkerPorts = { monitoringSources: dbMonitoringSources(deps.db) }): Workers {
  const workers = new Workers(deps);
  const metrics = workerMetrics(deps.metrics, deps.db, deps.clock);
  // What happens to each dispatched event besides the realtime fan-out (the webhook deliveries).
  const sinks: OutboxSink[] = [new WebhookFanout()];
  workers.add(observed(new OutboxDispatcher(deps.db, deps.broadcast, sinks), (n) => metrics.dispatched(n)), { wakeOnChannel: OUTBOX_CHANNEL });
  const monitoring = new MonitoringWorker(deps.db, { evaluate: evaluateAlerts, reconcile }, ports.monitoringSources, {
    ...DEFAULT_MONITORING_OPTIONS,
    defaultIntervalSeconds: deps.config.monitoringIntervalSeconds,
    placeName: (p) => {
      const place = offlineGeocoder().nearestPlace(p);
      return place ? `near ${place.name}` : null;
    },
  });
  workers.add(observed(monitoring, (_n, seconds) => metrics.monitoringPass(monitoring.lastPass, seconds)));
  workers.add(webhookDeliveryWorker(deps), { wakeOnChannel: DELIVERY_CHANNEL });
  workers.add(
    new IntegrationSyncWorker(deps.db, { registry: deps.integrations, encryptionKey: deps.secrets.encryptionKey, clock: deps.clock, log: deps.log }),
    { wakeOnChannel: INTEGRATIONS_CHANNEL },
  );
  return workers;
}
