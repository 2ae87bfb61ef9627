import type { DriverRecord } from '../../src/modules/drivers/drivers.repository.js';
import type { TenantRecord } from '../../src/modules/tenants/tenants.repository.js';

/**
 * What the benchmark hands the baseline server (as a JSON file, BENCH_SEED): the credentials the
 * harness created through the app's API, and the rows the app holds, read back from its API.
 */
export interface BenchSeed {
  /** Raw API keys, their tenants and the users who created them (whom a route planned with the key names as its creator), as created by POST /api/v1/api-keys on the app. */
  apiKeys: { key: string; tenantId: string; userId: string }[];
  /**
   * The tenants and drivers the app holds. The baseline inserts them only when it has a database of
   * its own (in-memory PGlite lives inside one process); on PostgreSQL it reads the app's rows.
   */
  tenants: SeedTenant[];
  drivers: SeedDriver[];
}

/** A tenant's row, as GET /api/v1/tenant returns it. */
export type SeedTenant = Pick<TenantRecord, 'id' | 'name' | 'address' | 'phone' | 'contactEmail' | 'dotNumber' | 'mcNumber' | 'status' | 'createdAt' | 'updatedAt'>;

/** A driver as GET/POST /api/v1/drivers returns it in full, plus its tenant. */
export type SeedDriver = DriverRecord & { tenantId: string };
