import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Database } from '../db/types.js';
import type { Clock } from '../lib/time.js';

/**
 * Prometheus metrics of the background work. The gauges that describe shared state (the outbox
 * backlog, how late the most overdue route check is) are read from the database when scraped, so
 * every process reports the same, whichever worker did the work.
 */
export function workerMetrics(registry: Registry, db: Database, clock: Clock) {
  const routesChecked = new Counter({ name: 'monitoring_routes_checked_total', help: 'Route checks done by this process', registers: [registry] });
  const passDuration = new Histogram({
    name: 'monitoring_pass_duration_seconds',
    help: 'Wall time of one monitoring pass (a batch of routes) in this process',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const alertChanges = new Counter({ name: 'monitoring_alert_changes_total', help: 'Alerts raised, updated and resolved by monitoring', labelNames: ['change'], registers: [registry] });
  new Gauge({
    name: 'monitoring_lag_seconds',
    help: 'How overdue the most overdue route check is (0 when none is due)',
    registers: [registry],
    async collect() {
      const { rows } = await db.system((tx) => tx.query<{ oldest: Date | string | null }>('SELECT min(next_check_at) AS oldest FROM route_monitoring'));
      const oldest = rows[0]?.oldest;
      this.set(oldest ? Math.max(0, (clock.now().getTime() - new Date(oldest).getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'monitoring_active_routes',
    help: 'Routes under monitoring',
    registers: [registry],
    async collect() {
      const { rows } = await db.system((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM route_monitoring'));
      this.set(rows[0]?.n ?? 0);
    },
  });
  new Gauge({
    name: 'outbox_depth',
    help: 'Events written and not yet dispatched',
    registers: [registry],
    async collect() {
      const { rows } = await db.system((tx) => tx.query<{ n: number }>('SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL'));
      this.set(rows[0]?.n ?? 0);
    },
  });
  const dispatched = new Counter({ name: 'outbox_events_dispatched_total', help: 'Events dispatched by this process', registers: [registry] });
  return {
    monitoringPass(report: { checked: number; raised: number; updated: number; resolved: number }, seconds: number): void {
      routesChecked.inc(report.checked);
      if (report.checked > 0) passDuration.observe(seconds);
      if (report.raised) alertChanges.inc({ change: 'raised' }, report.raised);
      if (report.updated) alertChanges.inc({ change: 'updated' }, report.updated);
      if (report.resolved) alertChanges.inc({ change: 'resolved' }, report.resolved);
    },
    dispatched(n: number): void {
      if (n > 0) dispatched.inc(n);
    },
  };
}

export type WorkerMetrics = ReturnType<typeof workerMetrics>;
