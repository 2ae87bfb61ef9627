/**
 * What the benchmark hands the baseline server (as a JSON file, BENCH_SEED): the credentials the
 * harness created through the app's API, and the rows the app holds, read back from its API.
 */
export interface BenchSeed {
  /** Raw API keys and their tenants, as created by POST /api/v1/api-keys on the app. */
  apiKeys: { key: string; tenantId: string }[];
  /**
   * The tenants and drivers the app holds. The baseline inserts them only when it has a database of
   * its own (in-memory PGlite lives inside one process); on PostgreSQL it reads the app's rows.
   */
  tenants: SeedTenant[];
  drivers: SeedDriver[];
}

export interface SeedTenant {
  id: string;
  name: string;
  address: string;
  phone: string;
  contactEmail: string;
  dotNumber: string | null;
  mcNumber: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
}

/** A driver as GET/POST /api/v1/drivers returns it in full, plus its tenant. */
export interface SeedDriver {
  tenantId: string;
  id: string;
  firstName: string;
  lastName: string;
  licenseNumber: string;
  licenseState: string;
  truckNumber: string | null;
  phoneNumber: string | null;
  email: string | null;
  status: string;
  userId: string | null;
  currentHoursDriven: number;
  currentOnDutyTime: number;
  currentCycleUsed: number;
  lastRestartDate: string | null;
  createdAt: string;
  updatedAt: string;
  deactivatedAt: string | null;
  reactivatedAt: string | null;
}
