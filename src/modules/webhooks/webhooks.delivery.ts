import type { Deps } from '../../deps.js';
import { retryPolicy, type RetryPolicy } from '../../domain/webhooks/index.js';
import { DEFAULT_DELIVERY_OPTIONS, deliveryMetrics, WebhookDeliveryWorker, type DeliveryOptions } from './webhooks.worker.js';

/** The retry policy of this deployment (WEBHOOK_RETRY_SCHEDULE). */
export function configuredPolicy(deps: Pick<Deps, 'config'>): RetryPolicy {
  return retryPolicy(deps.config.webhookRetrySchedule);
}

/** The delivery worker as the app runs it: the guarded HTTP client, the configured schedule and lease. */
export function webhookDeliveryWorker(deps: Deps, overrides: Partial<DeliveryOptions> = {}): WebhookDeliveryWorker {
  return new WebhookDeliveryWorker(
    deps.db,
    { sender: deps.webhookHttp, encryptionKey: deps.secrets.encryptionKey, clock: deps.clock },
    {
      ...DEFAULT_DELIVERY_OPTIONS,
      leaseMs: deps.config.webhookLeaseSeconds * 1000,
      policy: configuredPolicy(deps),
      random: Math.random,
      ...overrides,
    },
    deliveryMetrics(deps.metrics),
  );
}
