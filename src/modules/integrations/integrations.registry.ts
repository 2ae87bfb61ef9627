import type { Config } from '../../config.js';
import { HereFuelAdapter } from '../../adapters/integrations/here/adapter.js';
import { McLeodAdapter } from '../../adapters/integrations/mcleod/adapter.js';
import { MotiveAdapter } from '../../adapters/integrations/motive/adapter.js';
import { NwsAdapter } from '../../adapters/integrations/nws/adapter.js';
import { OpenWeatherAdapter } from '../../adapters/integrations/openweather/adapter.js';
import { Project44Adapter } from '../../adapters/integrations/project44/adapter.js';
import { SamsaraAdapter } from '../../adapters/integrations/samsara/adapter.js';
import type { IntegrationAdapter, VendorInfo } from '../../adapters/integrations/port.js';

/**
 * The vendor adapters this process can use, by vendor key (the spec's lowercase adapter keys). The app
 * builds it from the built-in adapters; tests inject fakes (AppOptions.integrationAdapters).
 */
export class IntegrationRegistry {
  private readonly byVendor = new Map<string, IntegrationAdapter>();

  constructor(adapters: readonly IntegrationAdapter[]) {
    for (const a of adapters) {
      if (this.byVendor.has(a.info.vendor)) throw new Error(`two integration adapters for vendor ${a.info.vendor}`);
      this.byVendor.set(a.info.vendor, a);
    }
  }

  get(vendor: string): IntegrationAdapter | undefined {
    return this.byVendor.get(vendor);
  }

  /** The vendor registry entries, by category then vendor key. */
  vendors(): VendorInfo[] {
    return [...this.byVendor.values()]
      .map((a) => a.info)
      .sort((x, y) => x.category.localeCompare(y.category) || x.vendor.localeCompare(y.vendor));
  }
}

/** The adapters built into the service (the vendor adapters are added here as they land). */
export function builtInAdapters(config: Pick<Config, 'samsaraBaseUrl' | 'motiveBaseUrl' | 'project44BaseUrl' | 'openWeatherBaseUrl' | 'nwsBaseUrl' | 'hereBaseUrl'>): IntegrationAdapter[] {
  return [
    new SamsaraAdapter({ baseUrl: config.samsaraBaseUrl }),
    new MotiveAdapter({ baseUrl: config.motiveBaseUrl }),
    // McLeod is hosted per customer: its base URL is the integration's apiUrl, not a service setting.
    new McLeodAdapter(),
    new Project44Adapter({ baseUrl: config.project44BaseUrl }),
    new OpenWeatherAdapter({ baseUrl: config.openWeatherBaseUrl }),
    new NwsAdapter({ baseUrl: config.nwsBaseUrl }),
    new HereFuelAdapter({ baseUrl: config.hereBaseUrl }),
  ];
}
