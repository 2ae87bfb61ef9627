/**
 * One monitoring worker process of the monitoring benchmark: its own connection pool on the benchmark's
 * schema; on {now} it runs passes until nothing is due and answers how many routes it checked.
 */
import { openDatabase } from '../src/db/client.js';
import { evaluateAlerts, reconcile } from '../src/domain/alerts/index.js';
import { dbMonitoringSources } from '../src/modules/monitoring/monitoring.sources.db.js';
import { DEFAULT_MONITORING_OPTIONS, MonitoringWorker } from '../src/modules/monitoring/monitoring.worker.js';

const [url, schema] = process.argv.slice(2);
const db = await openDatabase({ url: url!, schema: schema!, poolSize: 4 });
const worker = new MonitoringWorker(db, { evaluate: evaluateAlerts, reconcile }, dbMonitoringSources(db), { ...DEFAULT_MONITORING_OPTIONS, defaultIntervalSeconds: 60 });
process.send!({ ready: true });
process.on('message', async (m: { now: string }) => {
  const now = new Date(m.now);
  let checked = 0;
  while ((await worker.runOnce(now)) > 0) checked += worker.lastPass.checked;
  process.send!({ checked });
});
process.on('disconnect', () => void db.close().then(() => process.exit(0)));
